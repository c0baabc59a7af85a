from django.apps import AppConfig


class TeachConfig(AppConfig):
    name = "teach"
    verbose_name = "Teacher mode: games shown to a class, its pupils and their answers"

    def ready(self) -> None:
        from play import answers, page, service

        from .clockrules import class_tables_clock, lesson_clock
        from .table_phone import handed_over_words, question_extras
        from .tables_board import table_language

        for rule in (lesson_clock, class_tables_clock):
            if rule not in service.CLOCK_RULES:
                service.CLOCK_RULES.append(rule)
        if table_language not in page.SECOND_LANGUAGE_HOOKS:
            page.SECOND_LANGUAGE_HOOKS.append(table_language)
        if handed_over_words not in answers.HANDED_OVER_HOOKS:
            answers.HANDED_OVER_HOOKS.append(handed_over_words)
        if question_extras not in page.PAGE_HOOKS:
            page.PAGE_HOOKS.append(question_extras)
