from celery import shared_task


@shared_task
def ping() -> str:
    """Answer "pong"; proves a task makes the round trip through the broker and a worker."""
    return "pong"
