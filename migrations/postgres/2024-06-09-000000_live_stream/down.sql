DROP TABLE stream_events;
