"""minikcm: a compact, runnable Python port of kube-controller-manager at Kubernetes v1.36.3.

The pipeline, from the bottom up (shared DESIGN.md): the embedded API server
(`minikcm.apiserver`), the clientset (`minikcm.client`), client-go's machinery
(`minikcm.tools.cache`, `minikcm.util.workqueue`, `minikcm.informers`), the
controllers (`minikcm.controller`), and the command that runs them
(`minikcm.cmd.controller_manager`). `minikcm.sim` drives it all deterministically.
"""

from minikcm.upstream import KUBERNETES_VERSION

__version__ = "0.1.0"
__all__ = ["KUBERNETES_VERSION", "__version__"]
