"""WSGI entry point: pages, REST and static files on an HTTP server built for it
(gunicorn in ``deploy/``), while table sockets run on Daphne (``config/asgi.py``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
