"""An outside client of wirebench's websocket protocol: Python's websockets library
(sync API), speaking the wire mapping of docs/protocols.md by hand.

Usage: websockets_client.py URI [--cafile CA.pem] [--unix SOCKET]

Prints one JSON object: the person of getPerson(1), the refusal of getPerson(-5), the
payload of echo, the trades of streamTrades(300) and the answers of two calls sent
before either answer was read (matched by id).
"""

import json
import ssl
import sys

from websockets.sync.client import connect, unix_connect


def main():
    uri, args = sys.argv[1], sys.argv[2:]
    kwargs = {"max_size": 16 << 20}
    if "--cafile" in args:
        kwargs["ssl"] = ssl.create_default_context(cafile=args[args.index("--cafile") + 1])
    if "--unix" in args:
        ws = unix_connect(args[args.index("--unix") + 1], uri, **kwargs)
    else:
        ws = connect(uri, **kwargs)
    with ws:
        next_id = 0

        def send(op, body=None):
            nonlocal next_id
            next_id += 1
            msg = {"id": next_id, "op": op}
            if body is not None:
                msg["body"] = body
            ws.send(json.dumps(msg))
            return next_id

        def call(op, body=None):
            want = send(op, body)
            answer = json.loads(ws.recv())
            assert answer["id"] == want, answer
            return answer

        out = {
            "person": call("getPerson", {"id": 1})["body"],
            "unknown": call("getPerson", {"id": -5})["error"],
            "echo": call("echo", {"payload": sys.stdin.read()})["body"]["payload"],
        }

        sid = send("streamTrades", {"count": 300})
        trades = []
        while True:
            answer = json.loads(ws.recv())
            assert answer["id"] == sid, answer
            if "end" in answer:
                out["end"] = answer["end"]
                break
            trades.append(answer["body"])
        out["trades"] = trades

        a, b = send("increment", {"value": 41}), send("getPerson", {"id": 2})
        answers = {}
        for _ in range(2):
            answer = json.loads(ws.recv())
            answers[answer["id"]] = answer["body"]
        out["increment"] = answers[a]["value"]
        out["person2"] = answers[b]
    json.dump(out, sys.stdout)


main()
