"""Our addition, Today's Deal: the same four hands for everyone each day (UTC), and how
everyone played them. The game itself is an ordinary solo game of four hands in the signed
cookie; the day's results are the shared state, in the database."""
