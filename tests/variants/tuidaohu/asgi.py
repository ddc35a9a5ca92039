"""The site with 推倒胡 (test) registered: what a browser test serves with Daphne."""

from tests.variants.tuidaohu import register_tuidaohu

register_tuidaohu(listed=True)

from config.asgi import application  # noqa: E402

__all__ = ["application"]
