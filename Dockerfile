FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml ./
COPY . .
RUN pip install --no-cache-dir . \
 && DJANGO_SETTINGS_MODULE=config.production SECRET_KEY=build ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
