"""Port of k8s.io/apimachinery/pkg/selection/operator.go.

The operator spellings a label requirement (and a field requirement) is built
from: `labels.new_requirement(key, selection.IN, values)`. Go gives them their own
string type, `Operator`; here they are plain strings.

Start reading at: the constants below; labels.selector.new_requirement says which
operator takes how many values.

Differs from Go: no `Operator` type; the constants are `str`.
"""

DOES_NOT_EXIST = "!"
EQUALS = "="
DOUBLE_EQUALS = "=="
IN = "in"
NOT_EQUALS = "!="
NOT_IN = "notin"
EXISTS = "exists"
GREATER_THAN = "gt"
LESS_THAN = "lt"
