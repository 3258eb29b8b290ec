"""The Hearts Network: a table's state, the row store, the seat cookie, the views, the addresses."""
