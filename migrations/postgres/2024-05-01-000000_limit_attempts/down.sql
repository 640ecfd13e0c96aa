DROP TABLE limit_attempts;
