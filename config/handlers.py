"""The HTTP side of the ASGI application: Django's ASGI handler, its middleware run as one sync chain.

Every view here is sync, and so are most middlewares: Django's own (``MiddlewareMixin``) run each
hook through ``sync_to_async`` when the chain is async, and a sync-only one (WhiteNoise) makes
Django adapt the chain around it both ways. Under Django's ``ASGIHandler`` a request crossed
between the event loop and a thread 17 times (counted): the chain into a thread, back to the loop
below WhiteNoise, then once for each of the ten request and response hooks of the six middlewares
under it, for CSRF's ``process_view``, the view and the rendering of its response; plus the
``request_started`` signal and closing the response. Now 3: the chain is built in sync mode, as
under WSGI, and all of it (middlewares, URL resolution, the view, exception handling) runs in one
``sync_to_async`` call on the request's thread. Reading the body, sending the response,
disconnects, the request signals and the request's own thread (``ThreadSensitiveContext``: its
database connection is taken, used and given back on that one thread) stay Django's. An async view would still work (run
by ``async_to_sync``, as under WSGI); there is none.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def http_application() -> SyncChainASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` does, with this handler."""
    import django

    django.setup(set_prefix=False)
    return SyncChainASGIHandler()
