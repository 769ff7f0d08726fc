"""gRPC requests that do not decode: INVALID_ARGUMENT / BAD_REQUEST with one log line, never UNKNOWN.

grpcio turns a deserializer's exception into UNKNOWN ("Unexpected DecodeError"). This interceptor
gives our services' handlers a deserializer that never raises: a message that does not read
becomes a `Malformed`, which the handler's wrapper answers with the status a client can act on.
"""
from __future__ import annotations

import grpc

from smear_referee.limits import address_of
from smear_referee.server.webguard import AddressLog


class Malformed:
    """A request message that did not decode, and why."""

    def __init__(self, why: str):
        self.why = why


def _safe(deserialize):
    def read(data: bytes):
        try:
            return deserialize(data)
        except RecursionError:
            return Malformed("the request nests too deeply")
        except Exception as e:  # noqa: BLE001 - protobuf's DecodeError and whatever else a stranger's bytes cause
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            return Malformed(f"the request does not decode: {first[:200]}")
    return read


class ReadableRequests(grpc.aio.ServerInterceptor):
    """Wraps the handlers of `services` (full names) so a malformed request is INVALID_ARGUMENT."""

    def __init__(self, services: tuple[str, ...], logs: AddressLog):
        self.prefixes = tuple(f"/{s}/" for s in services)
        self.logs = logs

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if handler is None or not details.method.startswith(self.prefixes):
            return handler
        return _readable(handler, self.logs, details.method)


def _readable(handler, logs: AddressLog, method: str):
    from smear_referee import codes
    from smear_referee.server.service import _abort  # the one place statuses are made

    async def refuse(context, bad: Malformed) -> None:
        logs.note(address_of(context.peer()), f"{method}: malformed request: {bad.why}")
        await _abort(context, codes.BAD_REQUEST, bad.why)

    deserialize = _safe(handler.request_deserializer)
    if handler.unary_unary:
        inner = handler.unary_unary

        async def unary(request, context):
            if isinstance(request, Malformed):
                return await refuse(context, request)
            return await inner(request, context)
        return grpc.unary_unary_rpc_method_handler(unary, deserialize, handler.response_serializer)
    if handler.unary_stream:
        inner_s = handler.unary_stream

        async def server_stream(request, context):
            if isinstance(request, Malformed):
                await refuse(context, request)
                return
            async for item in inner_s(request, context):
                yield item
        return grpc.unary_stream_rpc_method_handler(server_stream, deserialize, handler.response_serializer)
    if handler.stream_stream:
        inner_b = handler.stream_stream

        async def bidi(request_iterator, context):
            bad: list[Malformed] = []

            async def messages():
                async for req in request_iterator:
                    if isinstance(req, Malformed):
                        bad.append(req)
                        return  # the stream of requests ends at the bad one
                    yield req
            async for item in inner_b(messages(), context):
                yield item
            if bad:
                await refuse(context, bad[0])
        return grpc.stream_stream_rpc_method_handler(bidi, deserialize, handler.response_serializer)
    return handler  # client streaming: none of our methods
