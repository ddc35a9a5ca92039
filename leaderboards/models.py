# Ratings and standings arrive with the settlement issue.
