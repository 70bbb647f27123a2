"""The site's static files (WhiteNoise), in a middleware that also runs on the event loop.

WhiteNoise's own middleware is synchronous only. Django then runs it, and every middleware
above it, in a thread of the request's own, and the rest of the chain through
``async_to_sync`` from that thread: under ASGI every request held a thread for its whole
life, a streamed table or a waiting long poll included, and a burst of refused requests
was a burst of threads competing for Python's interpreter lock (issue 25's abuse bench).
Here a request that is not for a static file passes straight to the next middleware on the
loop; only a static file's answer (a file to open and read) goes to a thread. The site's
own ASGI handler (``server.asgi_handler``) now runs the whole chain in one thread, where
this is WhiteNoise's middleware as it is; the loop's way serves Django's asynchronous
handlers (its test client's).
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    sync_capable = True
    async_capable = True

    def __init__(self, get_response=None, *args, **kwargs):
        super().__init__(get_response, *args, **kwargs)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request):
        if self.autorefresh:
            # Development: WhiteNoise looks on disk, so only a static path goes to a thread.
            if not request.path_info.startswith(self.static_prefix):
                return await self.get_response(request)
            static_file = await sync_to_async(self.find_file, thread_sensitive=False)(
                request.path_info
            )
        else:
            static_file = self.files.get(request.path_info)
        if static_file is None:
            return await self.get_response(request)
        return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
