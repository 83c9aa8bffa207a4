# genviz: the project's Jupyter server settings (Voila, `make present`); see genviz_websockets.py.
import pathlib

_here = pathlib.Path(__file__).resolve().parent
exec(compile((_here / "genviz_websockets.py").read_text(), str(_here / "genviz_websockets.py"), "exec"))
