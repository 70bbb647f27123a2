# One image for every role of the production shape (web, worker, beat, bot).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md ./
COPY requirements/runtime.txt ./requirements/
COPY config ./config
COPY server ./server
COPY launch ./launch
COPY games ./games
COPY bot ./bot
COPY admin_ui ./admin_ui
COPY web ./web
COPY locale ./locale
COPY manage.py ./
# The runtime lock only, every file checked against its hash; then the project itself.
RUN pip install --require-hashes -r requirements/runtime.txt \
    && pip install --no-deps . \
    && DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
       python manage.py collectstatic --noinput \
    && useradd --create-home catclub
USER catclub

EXPOSE 8000
# --timeout: longer than the webhook's wait for its update (bot/bridge.py PROCESS_TIMEOUT);
# gunicorn's default of 30 s killed the worker mid-update. Threads: a web table's long poll
# (up to TABLE_WAIT_SECONDS) holds a thread, not a whole worker. The tables' event streams
# are served by the same image under uvicorn workers (compose's `live` service).
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--worker-class", "server.wsgi_worker.Worker", "--threads", "32", "--timeout", "75"]
