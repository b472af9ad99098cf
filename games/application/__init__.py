"""The one write path and the read selectors. REST views, socket consumers and Celery tasks call
these functions and nothing below them."""
