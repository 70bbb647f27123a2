"""Django's active language, time zone, URL prefix and urlconf live in context variables
(config/context_locals, issue 25): read without a lock shared by every thread, and
followed per request as asgiref's ``Local`` followed them."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.urls import base as urls
from django.utils import timezone, translation
from django.utils.translation import trans_real

from server.context_locals import ContextLocal


def test_djangos_request_locals_are_context_locals_issue_25():
    for local in (trans_real._active, timezone._active, urls._prefixes, urls._urlconfs):
        assert isinstance(local, ContextLocal)


def test_a_language_follows_its_request_into_threads_and_back_issue_25():
    async def request(language: str) -> tuple[str, str, str]:
        translation.activate(language)
        await asyncio.sleep(0)  # the other request runs meanwhile
        in_thread = await sync_to_async(translation.get_language)()
        set_in_thread = await sync_to_async(translation.activate)("pt")
        assert set_in_thread is None
        return language, in_thread, translation.get_language()

    async def both():
        return await asyncio.gather(asyncio.create_task(request("it")), request("en"))

    assert asyncio.run(both()) == [("it", "it", "pt"), ("en", "en", "pt")]


def test_a_language_stays_in_its_thread_issue_25():
    seen: dict[str, str | None] = {}
    ready = threading.Barrier(2)

    def thread(language: str) -> None:
        translation.activate(language)
        ready.wait(5)  # both have set theirs
        seen[language] = translation.get_language()
        translation.deactivate()

    threads = [threading.Thread(target=thread, args=(code,)) for code in ("it", "pt")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert seen == {"it": "it", "pt": "pt"}

    translation.activate("it")
    try:
        other: list[bool] = []
        thread = threading.Thread(target=lambda: other.append(hasattr(trans_real._active, "value")))
        thread.start()
        thread.join(5)
        assert other == [False]  # a new thread starts with no request's language
    finally:
        translation.deactivate()


def test_async_code_called_from_a_thread_sees_its_language_issue_25():
    async def look() -> str:
        return translation.get_language()

    translation.activate("pt")
    try:
        assert async_to_sync(look)() == "pt"
    finally:
        translation.deactivate()


def test_an_attribute_deleted_is_gone_and_deleting_it_twice_says_so():
    local = ContextLocal("test")
    local.value = 1
    del local.value
    assert not hasattr(local, "value")
    with pytest.raises(AttributeError):
        del local.value
