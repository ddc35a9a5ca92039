# Tables, hands and the action log arrive with the game issues.
