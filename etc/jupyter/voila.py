# genviz: the project's Jupyter server settings (Voila, `make present`); see genviz_websockets.py.
import pathlib

from jupyter_core.paths import jupyter_path

_here = pathlib.Path(__file__).resolve().parent
exec(compile((_here / "genviz_websockets.py").read_text(), str(_here / "genviz_websockets.py"), "exec"))

# No request leaves the machine (#37 item 5): every Voila page without ?template= uses the
# genviz template (share/jupyter/voila/templates/genviz: the lab template without its two
# FontAwesome stylesheets from a CDN). Read by standalone Voila and by the Voila server
# extension of JupyterLab and the hubs' servers (both load voila.py from the Jupyter config
# path). Only where the template is on the Jupyter data path (make lab/present, the trial hub,
# TLJH and Z2JH put the project's share/jupyter there): elsewhere Voila would fail every page
# for want of it, so it keeps its own default.
if any((pathlib.Path(d) / "conf.json").is_file()
       for d in jupyter_path("voila", "templates", "genviz")):
    # (get_config: given by traitlets to a config file, looked up so pyflakes sees no unknown name)
    globals()["get_config"]().VoilaConfiguration.template = "genviz"
