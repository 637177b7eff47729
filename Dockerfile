FROM python:3.11-slim
# /app first on the path: its packages, with the compiled engines, win over pip's copies
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PYTHONPATH=/app
WORKDIR /app
COPY . .
# Dependencies, then the combat engines compiled in place with mypyc (README "Compiled combat
# engines": odds previews twice as fast; mypy as in pyproject.toml); the compiler and gcc leave
# the image again.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && pip install --no-cache-dir . "mypy>=1.11,<3" \
 && mypyc && rm -rf build .mypy_cache \
 && python -c "import rules.space.battle as s, rules.naval.battle as n; \
    assert all(m.__file__.endswith('.so') for m in (s, n)), (s.__file__, n.__file__)" \
 && pip uninstall -y mypy \
 && apt-get purge -y --auto-remove gcc libc6-dev && rm -rf /var/lib/apt/lists/* \
 && DJANGO_SETTINGS_MODULE=config.production SECRET_KEY=build ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput
EXPOSE 8000
# The same image runs the worker, for both queues (round jobs and the mail and webhook outbox):
# celery -A config worker -Q celery,outbox (docker-compose.yml)
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
