# taku: one node. docker-compose.yml runs two of these on one PostgreSQL.
#   docker build -t taku .
#   docker run -p 8765:8765 -v taku-data:/data taku            # SQLite in /data
#   docker run -p 8765:8765 taku taku serve --host 0.0.0.0 --port 8765 --db postgresql://…
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . /app
# the wheel carries the web client (package data taku/web): no source tree needed at run time
RUN pip install '/app[postgres]' \
    && useradd --system --uid 10001 --home-dir /data --create-home taku

USER taku
EXPOSE 8765
# /healthz answers once the store is open and the port listens
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=5 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('TAKU_PORT', '8765') + '/healthz', timeout=2)"]
CMD ["taku", "serve", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/taku.db"]
