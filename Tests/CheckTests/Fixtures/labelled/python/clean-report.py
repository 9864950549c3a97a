import json
from pathlib import Path

TEMPLATE = '''
Report for {name}
'''


def write_report(name: str, rows: list[dict], folder: Path) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({"name": name, "rows": rows}, indent=2))
    return path
