"""A test-only URLconf with the bugs the fuzzer must find (its own test), named nowhere else."""

from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.urls import path


def reflects(request: HttpRequest) -> HttpResponse:
    return HttpResponse(f"<p>{request.GET.get('q', '')}</p>")  # unescaped on purpose


def counts(request: HttpRequest, code: str) -> HttpResponse:
    return HttpResponse(str(int(request.GET.get("n", "0")) + len(code)))


def opens(request: HttpRequest, name: str) -> HttpResponse:
    return HttpResponse(str(Path("/tmp", name).exists() and Path("/tmp", name).stat().st_size))


def saves(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return HttpResponse(str(int(request.POST.get("count", "1")) * 2))
    return HttpResponse("<form method=post><input name=count value=1></form>")


urlpatterns = [
    path("reflect/", reflects),
    path("count/<slug:code>/", counts),
    path("open/<str:name>/", opens),
    path("save/", saves),
]
