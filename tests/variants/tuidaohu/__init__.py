"""A test-only fifth rule set in one folder: 推倒胡 (any winning shape wins) without
specials, plus one setup choice (a lucky suit) so a setup phase the site has never heard
of is played from its data alone.  ``register_tuidaohu()`` registers it through the public
registry; ``asgi.py`` serves the site with it registered."""

from .variant import TuiDaoHu, register_tuidaohu

__all__ = ["TuiDaoHu", "register_tuidaohu"]
