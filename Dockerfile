# Build: docker build -t tilepost .   (the same image runs the server and, with the
# command `mail-relay`, the email relay: see docker-compose.yml)
FROM rust:1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin tilepost

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* && useradd -r -u 10001 tilepost && mkdir /data && chown tilepost /data
COPY --from=build /src/target/release/tilepost /usr/local/bin/tilepost
USER tilepost
WORKDIR /data
ENV TILEPOST_BIND=0.0.0.0:8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD curl -fsS http://127.0.0.1:8080/readyz || exit 1
ENTRYPOINT ["tilepost"]
CMD ["serve"]
