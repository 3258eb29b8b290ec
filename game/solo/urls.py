from django.urls import path

from game.solo import challenge, menus, views
from game.solo import review as review_solo

app_name = "game"
urlpatterns = [
    path("", views.index, name="index"),
    path("name", views.set_name, name="name"),
    path("select", views.select_card, name="select"),
    path("pass", views.pass_cards, name="pass"),
    path("accept", views.accept, name="accept"),
    path("play", views.play_card, name="play"),
    path("next", views.next_hand, name="next"),
    path("new", menus.new_game, name="new"),
    # the menus and their dialogs, each also a page of its own
    path("help", menus.help_contents, name="help"),
    path("quote", menus.quote, name="quote"),
    path("about", menus.about, name="about"),
    path("score", menus.score, name="score"),
    path("options", menus.options, name="options"),
    path("stats", menus.stats, name="stats"),
    path("stats/reset", menus.stats_reset, name="stats_reset"),
    path("select-game", menus.select_game, name="select_game"),
    path("game/<str:number>/", menus.open_game, name="open_game"),
    path("undo", menus.undo, name="undo"),
    path("hint", menus.hint, name="hint"),
    path("last-trick", menus.last_trick, name="last_trick"),
    path("exit", menus.exit_page, name="exit"),
    # our addition: the last hand reviewed, a page per step without JavaScript
    path("review", review_solo.review_hand, name="review"),
    path("review/<int:step>", review_solo.review_hand, name="review_step"),
    # our addition: challenge a friend to the same deals, by a signed link
    path("challenge", challenge.challenge_friend, name="challenge"),
    path("challenge/table", challenge.comparison, name="challenge_table"),
    path("challenge/<path:link>", challenge.take_up, name="challenge_link"),
]
