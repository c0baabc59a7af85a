"""Template access to the glossary: card faces and game words in the page's language."""

from django import template

from core.glossary import CardFace, card_face, current_lang, face_down_card, term

register = template.Library()


@register.simple_tag
def face(code: str) -> CardFace:
    return card_face(code, current_lang())


@register.simple_tag
def word(key: str) -> str:
    return term(key)


@register.simple_tag
def card_back_name() -> str:
    return face_down_card()
