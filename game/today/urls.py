from django.urls import path

from game.today import views

app_name = "today"
urlpatterns = [
    path("", views.start, name="start"),
    path("sheet", views.day_sheet, name="sheet"),
    path("board", views.board, name="board"),
    path("board/<str:on>", views.board, name="board_on"),
]
