"""The signed-cookie solo game: its actions, forms, views, menus and addresses."""
