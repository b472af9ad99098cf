"""The HTTP side of the ASGI application: Django's ASGI handler, its middleware run as one sync chain,
and a whole request's sync work in one thread crossing.

Every view here is sync, and so are most middlewares: Django's own (``MiddlewareMixin``) run each
hook through ``sync_to_async`` when the chain is async, and a sync-only one (WhiteNoise) makes
Django adapt the chain around it both ways. Under Django's ``ASGIHandler`` a request crossed
between the event loop and a thread 17 times (counted): the chain into a thread, back to the loop
below WhiteNoise, then once for each of the ten request and response hooks of the six middlewares
under it, for CSRF's ``process_view``, the view and the rendering of its response; plus the
``request_started`` signal and closing the response. The chain is built in sync mode, as under
WSGI, and a request now crosses once (``handle``): the ``request_started`` signal, the chain
(middlewares, URL resolution, the view, exception handling) and closing the response (the
``request_finished`` signal) run in one ``sync_to_async`` call on the request's thread. A streamed
response (a static file) is closed after it has been sent, in a second call. Reading the body and
sending the response stay Django's. An async view would still work (run by ``async_to_sync``, as
under WSGI); there is none.

Each request still runs its sync work on one thread of its own (``ThreadSensitiveContext``: its
database connection is taken, used and given back on that one thread), but the thread is lent
from ``RequestThreads`` and kept for later requests, where Django's handler started a thread for
every request and joined it at the end (about 0.1 ms of CPU each; 4 % of a server's CPU under
``bench load``).
"""

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse
from django.urls import set_script_prefix


class RequestThreads:
    """Single-thread executors lent to one request at a time and kept for the next ones: as many
    as requests ever ran at once, at most ``keep`` of them idle (the rest are let go). Used only
    from the event loop's thread."""

    def __init__(self, keep: int = 32):
        self.keep = keep
        self.idle: list[ThreadPoolExecutor] = []

    def lend(self) -> ThreadPoolExecutor:
        if self.idle:
            return self.idle.pop()  # the most recently used: its thread is the warmest
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kamiza-request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < self.keep:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)  # its thread ends once it has finished what it runs


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self):
        BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self.threads = RequestThreads()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.threads.lend()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # A request cancelled mid-view leaves that call running: the next request lent this
            # thread queues behind it, as it would behind a busy thread of its own.
            self.threads.give_back(executor)

    async def handle(self, scope, receive, send):
        """Django's ``ASGIHandler.handle`` with one thread crossing (``respond``) where it made three.
        The client going away mid-request does not cancel anything here: a sync view runs to its
        end either way, and the server drops what is sent after a disconnect."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self.respond, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close, thread_sensitive=True)()
        finally:
            body_file.close()

    def respond(self, scope, body_file):
        """On the request's thread: ``request_started``, the request's response and, unless it is
        streamed, its closing (``request_finished``: the database connection is given back here)."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size  # the server chunks for itself
        if not response.streaming:
            response.close()
        return response


def http_application() -> SyncChainASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` does, with this handler."""
    import django

    django.setup(set_prefix=False)
    return SyncChainASGIHandler()
