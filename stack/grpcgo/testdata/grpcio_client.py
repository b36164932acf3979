"""An outside client of wirebench's grpc-avro server: Python's grpcio with fastavro,
calling with raw-bytes (de)serializers and the schemas in contract/schema/avro.
grpcio sends "content-type: application/grpc" (no +avro): the server reads every
request as Avro whatever the content-subtype says.

usage: python3 grpcio_client.py AVRO_SCHEMA_DIR HOST:PORT PAYLOAD TRADES

Prints one JSON object with the answers; python_test.go checks them against the data
set. Any unexpected failure raises, so the exit status is non-zero.
"""

import glob
import io
import json
import os
import sys

import fastavro
import grpc


def load_schemas(directory):
    """Parses every .avsc of directory. A record may name records of other files
    (wirebench.v1.PersonName), so each pass parses those whose names are known."""
    raw = {}
    for path in glob.glob(os.path.join(directory, "*.avsc")):
        with open(path) as f:
            raw[os.path.basename(path)[: -len(".avsc")]] = json.load(f)
    named, parsed = {}, {}
    while raw:
        progress = False
        for name, schema in list(raw.items()):
            try:
                parsed[name] = fastavro.parse_schema(schema, named)
            except fastavro.schema.UnknownType:
                continue
            del raw[name]
            progress = True
        if not progress:
            raise ValueError("schemas name unknown records: %s" % sorted(raw))
    return parsed


def serializer(schema):
    def encode(record):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, schema, record)
        return buf.getvalue()

    return encode


def deserializer(schema):
    def decode(data):
        buf = io.BytesIO(data)
        record = fastavro.schemaless_reader(buf, schema)
        if buf.tell() != len(data):
            raise ValueError("%d bytes after the record" % (len(data) - buf.tell()))
        return record

    return decode


def unary(channel, method, request, response):
    return channel.unary_unary(
        method,
        request_serializer=serializer(request),
        response_deserializer=deserializer(response),
    )


def main(schema_dir, addr, payload, count):
    s = load_schemas(schema_dir)
    with grpc.insecure_channel(addr) as channel:
        get_person = unary(channel, "/wirebench.v1.PersonService/GetPerson", s["PersonId"], s["Person"])
        echo = unary(channel, "/wirebench.v1.EchoService/Echo", s["EchoMessage"], s["EchoMessage"])
        stream_trades = channel.unary_stream(
            "/wirebench.v1.TradeService/StreamTrades",
            request_serializer=serializer(s["TradesRequest"]),
            response_deserializer=deserializer(s["Trade"]),
        )
        out = {
            "person": get_person({"id": 1}, timeout=10),
            "echo": echo({"payload": payload}, timeout=10)["payload"],
            "trades": list(stream_trades({"count": count}, timeout=30)),
        }
        try:
            get_person({"id": -5}, timeout=10)
            out["unknown"] = "answered"
        except grpc.RpcError as e:
            out["unknown"] = "%s: %s" % (e.code().name, e.details())
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
