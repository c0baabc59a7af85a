from django.dispatch import Signal

#: a table's lobby changed (a seat taken or freed, someone ready, a game started or over):
#: live.publish tells the table's open pages. Sent with `code`.
table_changed = Signal()
