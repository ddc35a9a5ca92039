"""The test suite's settings: the project's own in debug mode, with a fast password hasher.

PBKDF2 costs about 0.3 s of CPU per user created or logged in, and the tests create many.
Servers that the tests start inherit this module through DJANGO_SETTINGS_MODULE, so they
check the passwords the tests set.
"""

import os

# The tests' servers and the suite itself run as `make run` does: the debug switches on, so no
# HTTPS redirect, static files served from the source folders.  A test of the production
# switches sets DJANGO_DEBUG=0 for the process it starts.
os.environ.setdefault("DJANGO_DEBUG", "1")

from config.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database is thrown away: a commit need not wait for the disk (a killed
    # process still loses nothing; only a crash of the machine would).
    DATABASES["default"]["OPTIONS"]["init_command"] = "PRAGMA synchronous=OFF"  # noqa: F405

# The site's URLs and the browser tests' chosen-deal hooks (tests/deals.py): a production
# server, on config.settings, has no such URL.
ROOT_URLCONF = "tests.urls"

# Every browser test's user signs up and logs in from 127.0.0.1, dozens a minute against
# one test server: allauth's per-address limits on those two (20 and 30 a minute) are the
# production rule for one address, not for a suite of many people on one.  The failed-login
# limits, which the tests check, are the project's own.
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "signup": "1000/m/ip", "login": "1000/m/ip"}  # noqa: F405
