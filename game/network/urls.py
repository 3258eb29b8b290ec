"""The Hearts Network's addresses: /network asks dealer or connect; /t/<code>/ is a
table. The action names match the solo game's, so its partials post to the table's own."""

from django.urls import path

from game.network import review as review_network
from game.network import stream
from game.network import views as network

app_name = "network"
urlpatterns = [
    path("network", network.network_dialog, name="dialog"),
    path("t/<str:code>/", network.table_page, name="table"),
    path("t/<str:code>/poll", network.poll, name="poll"),
    path("t/<str:code>/events", stream.events, name="events"),
    path("t/<str:code>/name", network.join, name="name"),
    path("t/<str:code>/start", network.start, name="start"),
    path("t/<str:code>/select", network.select_card, name="select"),
    path("t/<str:code>/pass", network.pass_cards, name="pass"),
    path("t/<str:code>/accept", network.accept, name="accept"),
    path("t/<str:code>/play", network.play_card, name="play"),
    path("t/<str:code>/next", network.next_hand, name="next"),
    path("t/<str:code>/replace", network.replace, name="replace"),
    path("t/<str:code>/sit-down", network.sit_down, name="sit_down"),
    path("t/<str:code>/remove", network.remove, name="remove"),
    path("t/<str:code>/score", network.score, name="score"),
    path("t/<str:code>/hint", network.hint, name="hint"),
    path("t/<str:code>/undo", network.undo, name="undo"),
    path("t/<str:code>/last-trick", network.last_trick, name="last_trick"),
    path("t/<str:code>/review", review_network.table_review, name="review"),
    path("t/<str:code>/review/<int:step>", review_network.table_review, name="review_step"),
]
