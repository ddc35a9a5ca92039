# The deployment test (nginx in front of gunicorn and two Daphne processes) needs what the
# deployment needs: REDIS_URL, so that the processes share one channel layer and one
# Celery broker; The in-memory layer of the
# embedded profile cannot span processes, so there is nothing honest to run without it:
# these tests are collected only in the services profile, which is .ci/run's second pass
# (after it has installed nginx-light).
import os

collect_ignore = [] if os.environ.get("REDIS_URL") else ["test_deploy.py"]
