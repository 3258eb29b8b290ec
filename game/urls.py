from django.urls import path

from game import views

app_name = "game"
urlpatterns = [
    path("", views.index, name="index"),
    path("name", views.set_name, name="name"),
    path("select", views.select_card, name="select"),
    path("pass", views.pass_cards, name="pass"),
    path("accept", views.accept, name="accept"),
    path("play", views.play_card, name="play"),
    path("next", views.next_hand, name="next"),
    path("new", views.new_game, name="new"),
]
