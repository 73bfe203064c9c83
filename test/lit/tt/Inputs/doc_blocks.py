"""Print the ```mlir blocks of a Markdown file as one `// -----` separated input for meshc-opt."""

import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"^```mlir\n(.*?)^```", text, flags=re.S | re.M)
if not blocks:
    sys.exit(f"{sys.argv[1]}: no ```mlir blocks")
sys.stdout.write("// -----\n".join(blocks))
