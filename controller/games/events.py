"""The one input type of every game machine: controller/events.py, where it lives in the
bottom layer (events, errors, units) that the drivers import; the games' name for it stays."""

from controller.events import KINDS, Event  # noqa: F401
