from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import tables_views, views

urlpatterns = [
    path("<variant:variant>/teach/", views.setup_page, name="teach_setup"),
    path("teach/<str:game_id>/", views.lesson_page, name="teach_lesson"),
    path("teach/<str:game_id>/move/", views.move, name="teach_move"),
    path("teach/<str:game_id>/clock/", views.clock, name="teach_clock"),
    path("teach/<str:game_id>/question/", views.question, name="teach_question"),
    path("teach/<str:game_id>/explain/", views.explain_view, name="teach_explain"),
    path("teach/<str:game_id>/follow/", views.follow_page, name="teach_follow"),
    path("teach/<str:game_id>/answer/<int:number>/", views.answer, name="teach_answer"),
    path("teach/<str:game_id>/summary/", views.summary_page, name="teach_summary"),
    path("teach/<str:game_id>/replay/", views.replay_page, name="teach_replay"),
    path("teach/<str:game_id>/tables/", tables_views.tables_page, name="teach_tables"),
    path("teach/<str:game_id>/tables/control/", tables_views.tables_control,
         name="teach_tables_control"),
    path("teach/<str:game_id>/table/", tables_views.pupil_table, name="teach_pupil_table"),
    path("teach/<str:game_id>/table/status/", tables_views.pupil_status,
         name="teach_pupil_status"),
    path("class/", views.join, name="teach_join"),
]
