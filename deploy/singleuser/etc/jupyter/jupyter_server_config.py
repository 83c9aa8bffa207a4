# genviz: settings of every single-user server on a hub (trial hub, TLJH, Zero to JupyterHub).
# This directory comes first on JUPYTER_CONFIG_PATH of a hub's single-user servers; the
# project's own etc/jupyter (TCP_NODELAY on the websockets) follows it and is loaded too.
#
# Kernels talk over IPC (unix sockets), not TCP. With TCP, a kernel's ports are picked by
# binding port 0, closing, and letting the kernel bind them again: when a class starts ten
# kernels in the same second, another process can take a port in between and the kernel dies
# with "ZMQError: Address already in use" (1 of 10 kernels in the issue #21 trial; the
# automatic restart then picked the same port five times). A unix socket is a new file whose
# name nobody else can take, so the race is gone.
#
# IPC sockets live next to the kernel's connection file in the runtime directory, and a socket
# path is limited to 107 bytes: ~/.local/share/jupyter/runtime/kernel-<uuid>-ipc-N is longer
# than that for most homes (20 of 20 kernels failed in the trial). So each server gets its own
# short runtime directory, /tmp/jr-XXXXXXXX (mkdtemp: created atomically, mode 0700, a name
# another user cannot take), removed when the server exits.
import atexit
import os
import shutil
import tempfile

c = get_config()  # noqa: F821 (provided by Jupyter when it loads this file)

c.KernelManager.transport = "ipc"

#: the longest runtime directory that keeps kernel-<uuid>-ipc-N under the unix socket limit
_MAX_RUNTIME_DIR = 107 - len("/kernel-00000000-0000-0000-0000-000000000000-ipc-9") - 1
_runtime = os.environ.get("JUPYTER_RUNTIME_DIR", "")
if not _runtime or len(_runtime) > _MAX_RUNTIME_DIR:
    _runtime = tempfile.mkdtemp(prefix="jr-", dir="/tmp" if os.path.isdir("/tmp") else None)
    os.environ["JUPYTER_RUNTIME_DIR"] = _runtime
    atexit.register(shutil.rmtree, _runtime, True)
