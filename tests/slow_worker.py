"""A Celery app for the crash test: the game processor pauses inside its transaction
(holding the game's lock) so that the test can SIGKILL the worker right there."""

import os
import time

from celery.signals import worker_init

from config.celery import app

__all__ = ["app"]


@worker_init.connect
def slow_down_processing(**kwargs):
    from games.play import processing

    pause = float(os.environ.get("SLOW_SAVE_SECONDS", "60"))
    original = processing.Step.save

    def save_slowly(self, pending):
        time.sleep(pause)
        original(self, pending)

    processing.Step.save = save_slowly
