"""The rate of review requests, counted in the cache like the other throttles: each new
review replays a hand with the strong bot at every decision on a worker."""

from rest_framework.throttling import UserRateThrottle


class ReviewRequestThrottle(UserRateThrottle):
    scope = "review_request"
