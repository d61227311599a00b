//! Protobuf end to end on one fixture: facts (exact), the graph (rpcs as `GRPC` routes and
//! their `google.api.http` bindings as HTTP routes, both handled by the rpc), and the
//! resolution (imports through an include root, also one above the repository, vendored
//! copies told apart by what the file imports, types through protobuf's scoping, `import
//! public`).

use codegraph_parse::Language;
use codegraph_tests::{render_fixture_facts, render_fixture_graph, render_fixture_resolution};
use expect_test::expect;

const FIXTURE: &str = r#"
//- /api/etcdserverpb/rpc.proto
syntax = "proto3";
package etcdserverpb;

import "gogoproto/gogo.proto";
import "mvccpb/kv.proto";
import "google/api/annotations.proto";

option go_package = "go.etcd.io/etcd/api/v3/etcdserverpb";

// The key-value store.
service KV {
  // Range gets the keys in the range from the key-value store.
  rpc Range(RangeRequest) returns (RangeResponse) {
      option (google.api.http) = {
        post: "/v3/kv/range"
        body: "*"
        additional_bindings { get: "/v3/kv/{key=keys/*}" }
    };
  }
  rpc Watch(stream RangeRequest) returns (stream .etcdserverpb.RangeResponse);
}

message RangeRequest {
  enum SortOrder {
    NONE = 0; // default, no sorting
    ASCEND = 1;
  }
  bytes key = 1;
  SortOrder sort_order = 2;
  oneof target {
    string name = 3;
    mvccpb.KeyValue kv = 4;
  }
  map<string, Header> headers = 5;
  message Header {
    string value = 1;
  }
}

message RangeResponse {
  repeated mvccpb.KeyValue kvs = 1;
  RangeRequest.Header header = 2;
  google.protobuf.Timestamp at = 3;
}
//- /api/mvccpb/kv.proto
syntax = "proto3";
package mvccpb;

import public "mvccpb/event.proto";

message KeyValue {
  bytes key = 1;
}
//- /api/mvccpb/event.proto
syntax = "proto3";
package mvccpb;

message Event {
  enum EventType {
    PUT = 0;
    DELETE = 1;
  }
  EventType type = 1;
}
//- /api/v3lock/lock.proto
syntax = "proto3";
package v3lockpb;

import "etcd/api/mvccpb/kv.proto";

service Lock {
  rpc Lock(LockRequest) returns (LockResponse) {}
}

message LockRequest { mvccpb.Event ev = 1; }
message LockResponse { .mvccpb.KeyValue kv = 1; }
//- /vendor/mvccpb/kv.proto
syntax = "proto3";
package mvccpb;

message KeyValue {
  bytes key = 1;
}
//- /client/watch.proto
syntax = "proto3";
package client;

import "mvccpb/kv.proto";

message Watched {
  mvccpb.Event event = 1;
  mvccpb.KeyValue kv = 2;
}

extend mvccpb.KeyValue {
  string note = 100;
}
"#;

#[test]
fn the_registry_knows_it() {
    assert_eq!(Language::from_path("api/rpc.proto"), Some(Language::Protobuf));
    assert_eq!((Language::Protobuf.as_str(), Language::Protobuf.id_tag()), ("protobuf", "proto"));
}

#[test]
fn a_file_with_syntax_errors_keeps_what_parses() {
    expect![[r#"
        //- broken.proto
        package p
        sym struct Ok L2-2 exported sig="message Ok"
        sym property Ok.a L2-2 exported in=Ok sig="int32 a = 1"
        sym struct Bad L3-3 exported sig="message Bad"
        sym interface S L4-6 exported sig="service S"
        sym method S.Get L5-5 exported in=S sig="rpc Get(Ok) returns (Ok)"
        type declared L5:11 Ok in S.Get
        type declared L5:24 Ok in S.Get
        route L5 grpc GRPC /p.S/Get handler=sym:S.Get in=S
        syntax_errors 1
    "#]]
    .assert_eq(&render_fixture_facts(
        "//- /broken.proto\npackage p;\nmessage Ok { int32 a = 1; }\nmessage Bad { int32 = ; }\nservice S {\n  rpc Get(Ok) returns (Ok);\n}\n",
    ));
}

#[test]
fn facts_of_protobuf_files() {
    expect![[r#"
        //- api/etcdserverpb/rpc.proto
        package etcdserverpb
        option go_package = "go.etcd.io/etcd/api/v3/etcdserverpb"
        sym interface KV L11-21 exported sig="service KV" doc="The key-value store."
        sym method KV.Range L13-19 exported in=KV sig="rpc Range(RangeRequest) returns (RangeResponse)" doc="Range gets the keys in the range from the key-value store."
        sym method KV.Watch L20-20 exported in=KV sig="rpc Watch(stream RangeRequest) returns (stream .etcdserverpb.RangeResponse)"
        sym struct RangeRequest L23-38 exported sig="message RangeRequest"
        sym enum RangeRequest.SortOrder L24-27 exported in=RangeRequest sig="enum SortOrder"
        sym constant RangeRequest.SortOrder.NONE L25-25 exported in=RangeRequest.SortOrder sig="NONE = 0" doc="default, no sorting"
        sym constant RangeRequest.SortOrder.ASCEND L26-26 exported in=RangeRequest.SortOrder sig="ASCEND = 1"
        sym property RangeRequest.key L28-28 exported in=RangeRequest sig="bytes key = 1"
        sym property RangeRequest.sort_order L29-29 exported in=RangeRequest sig="SortOrder sort_order = 2"
        sym property RangeRequest.name L31-31 exported in=RangeRequest sig="string name = 3"
        sym property RangeRequest.kv L32-32 exported in=RangeRequest sig="mvccpb.KeyValue kv = 4"
        sym property RangeRequest.headers L34-34 exported in=RangeRequest sig="map<string, Header> headers = 5"
        sym struct RangeRequest.Header L35-37 exported in=RangeRequest sig="message Header"
        sym property RangeRequest.Header.value L36-36 exported in=RangeRequest.Header sig="string value = 1"
        sym struct RangeResponse L40-44 exported sig="message RangeResponse"
        sym property RangeResponse.kvs L41-41 exported in=RangeResponse sig="repeated mvccpb.KeyValue kvs = 1"
        sym property RangeResponse.header L42-42 exported in=RangeResponse sig="RangeRequest.Header header = 2"
        sym property RangeResponse.at L43-43 exported in=RangeResponse sig="google.protobuf.Timestamp at = 3"
        import L4 Path "gogoproto/gogo.proto"
        import L5 Path "mvccpb/kv.proto"
        import L6 Path "google/api/annotations.proto"
        type declared L13:13 RangeRequest in KV.Range
        type declared L13:36 RangeResponse in KV.Range
        type declared L20:20 RangeRequest in KV.Watch
        type declared L20:50 .etcdserverpb.RangeResponse in KV.Watch
        type declared L29:3 SortOrder in RangeRequest.sort_order
        type declared L32:5 mvccpb.KeyValue in RangeRequest.kv
        type declared L34:15 Header in RangeRequest.headers
        type declared L41:12 mvccpb.KeyValue in RangeResponse.kvs
        type declared L42:3 RangeRequest.Header in RangeResponse.header
        type declared L43:3 google.protobuf.Timestamp in RangeResponse.at
        route L13 grpc GRPC /etcdserverpb.KV/Range handler=sym:KV.Range in=KV
        route L15 grpc-gateway POST /v3/kv/range handler=sym:KV.Range in=KV.Range
        route L17 grpc-gateway GET /v3/kv/:key handler=sym:KV.Range in=KV.Range
        route L20 grpc GRPC /etcdserverpb.KV/Watch handler=sym:KV.Watch in=KV
        //- api/mvccpb/kv.proto
        package mvccpb
        sym struct KeyValue L6-8 exported sig="message KeyValue"
        sym property KeyValue.key L7-7 exported in=KeyValue sig="bytes key = 1"
        import L4 ReExport "mvccpb/event.proto"
        //- api/mvccpb/event.proto
        package mvccpb
        sym struct Event L4-10 exported sig="message Event"
        sym enum Event.EventType L5-8 exported in=Event sig="enum EventType"
        sym constant Event.EventType.PUT L6-6 exported in=Event.EventType sig="PUT = 0"
        sym constant Event.EventType.DELETE L7-7 exported in=Event.EventType sig="DELETE = 1"
        sym property Event.type L9-9 exported in=Event sig="EventType type = 1"
        type declared L9:3 EventType in Event.type
        //- api/v3lock/lock.proto
        package v3lockpb
        sym interface Lock L6-8 exported sig="service Lock"
        sym method Lock.Lock L7-7 exported in=Lock sig="rpc Lock(LockRequest) returns (LockResponse)"
        sym struct LockRequest L10-10 exported sig="message LockRequest"
        sym property LockRequest.ev L10-10 exported in=LockRequest sig="mvccpb.Event ev = 1"
        sym struct LockResponse L11-11 exported sig="message LockResponse"
        sym property LockResponse.kv L11-11 exported in=LockResponse sig=".mvccpb.KeyValue kv = 1"
        import L4 Path "etcd/api/mvccpb/kv.proto"
        type declared L7:12 LockRequest in Lock.Lock
        type declared L7:34 LockResponse in Lock.Lock
        type declared L10:23 mvccpb.Event in LockRequest.ev
        type declared L11:24 .mvccpb.KeyValue in LockResponse.kv
        route L7 grpc GRPC /v3lockpb.Lock/Lock handler=sym:Lock.Lock in=Lock
        //- vendor/mvccpb/kv.proto
        package mvccpb
        sym struct KeyValue L4-6 exported sig="message KeyValue"
        sym property KeyValue.key L5-5 exported in=KeyValue sig="bytes key = 1"
        //- client/watch.proto
        package client
        sym struct Watched L6-9 exported sig="message Watched"
        sym property Watched.event L7-7 exported in=Watched sig="mvccpb.Event event = 1"
        sym property Watched.kv L8-8 exported in=Watched sig="mvccpb.KeyValue kv = 2"
        sym property note L12-12 exported sig="string note = 100"
        import L4 Path "mvccpb/kv.proto"
        type declared L7:3 mvccpb.Event in Watched.event
        type declared L8:3 mvccpb.KeyValue in Watched.kv
        type declared L11:8 mvccpb.KeyValue in <module>
    "#]]
    .assert_eq(&render_fixture_facts(FIXTURE));
}

#[test]
fn graph_of_protobuf_files() {
    expect![[r#"
        node file file:api/etcdserverpb/rpc.proto L1-44
        node file file:api/mvccpb/event.proto L1-10
        node file file:api/mvccpb/kv.proto L1-8
        node file file:api/v3lock/lock.proto L1-11
        node file file:client/watch.proto L1-13
        node file file:vendor/mvccpb/kv.proto L1-6
        node route route:api/etcdserverpb/rpc.proto:GET /v3/kv/:key L17-17 parent=file:api/etcdserverpb/rpc.proto
        node route route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Range L13-13 parent=file:api/etcdserverpb/rpc.proto
        node route route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Watch L20-20 parent=file:api/etcdserverpb/rpc.proto
        node route route:api/etcdserverpb/rpc.proto:POST /v3/kv/range L15-15 parent=file:api/etcdserverpb/rpc.proto
        node route route:api/v3lock/lock.proto:GRPC /v3lockpb.Lock/Lock L7-7 parent=file:api/v3lock/lock.proto
        node interface sym:proto:api/etcdserverpb/rpc.proto:KV L11-21 parent=file:api/etcdserverpb/rpc.proto
        node method sym:proto:api/etcdserverpb/rpc.proto:KV.Range L13-19 parent=sym:proto:api/etcdserverpb/rpc.proto:KV
        node method sym:proto:api/etcdserverpb/rpc.proto:KV.Watch L20-20 parent=sym:proto:api/etcdserverpb/rpc.proto:KV
        node struct sym:proto:api/etcdserverpb/rpc.proto:RangeRequest L23-38 parent=file:api/etcdserverpb/rpc.proto
        node struct sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header L35-37 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header.value L36-36 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header
        node enum sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder L24-27 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node constant sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.ASCEND L26-26 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder
        node constant sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.NONE L25-25 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.headers L34-34 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.key L28-28 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.kv L32-32 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.name L31-31 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.sort_order L29-29 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeRequest
        node struct sym:proto:api/etcdserverpb/rpc.proto:RangeResponse L40-44 parent=file:api/etcdserverpb/rpc.proto
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.at L43-43 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeResponse
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.header L42-42 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeResponse
        node property sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.kvs L41-41 parent=sym:proto:api/etcdserverpb/rpc.proto:RangeResponse
        node struct sym:proto:api/mvccpb/event.proto:Event L4-10 parent=file:api/mvccpb/event.proto
        node enum sym:proto:api/mvccpb/event.proto:Event.EventType L5-8 parent=sym:proto:api/mvccpb/event.proto:Event
        node constant sym:proto:api/mvccpb/event.proto:Event.EventType.DELETE L7-7 parent=sym:proto:api/mvccpb/event.proto:Event.EventType
        node constant sym:proto:api/mvccpb/event.proto:Event.EventType.PUT L6-6 parent=sym:proto:api/mvccpb/event.proto:Event.EventType
        node property sym:proto:api/mvccpb/event.proto:Event.type L9-9 parent=sym:proto:api/mvccpb/event.proto:Event
        node struct sym:proto:api/mvccpb/kv.proto:KeyValue L6-8 parent=file:api/mvccpb/kv.proto
        node property sym:proto:api/mvccpb/kv.proto:KeyValue.key L7-7 parent=sym:proto:api/mvccpb/kv.proto:KeyValue
        node interface sym:proto:api/v3lock/lock.proto:Lock L6-8 parent=file:api/v3lock/lock.proto
        node method sym:proto:api/v3lock/lock.proto:Lock.Lock L7-7 parent=sym:proto:api/v3lock/lock.proto:Lock
        node struct sym:proto:api/v3lock/lock.proto:LockRequest L10-10 parent=file:api/v3lock/lock.proto
        node property sym:proto:api/v3lock/lock.proto:LockRequest.ev L10-10 parent=sym:proto:api/v3lock/lock.proto:LockRequest
        node struct sym:proto:api/v3lock/lock.proto:LockResponse L11-11 parent=file:api/v3lock/lock.proto
        node property sym:proto:api/v3lock/lock.proto:LockResponse.kv L11-11 parent=sym:proto:api/v3lock/lock.proto:LockResponse
        node struct sym:proto:client/watch.proto:Watched L6-9 parent=file:client/watch.proto
        node property sym:proto:client/watch.proto:Watched.event L7-7 parent=sym:proto:client/watch.proto:Watched
        node property sym:proto:client/watch.proto:Watched.kv L8-8 parent=sym:proto:client/watch.proto:Watched
        node property sym:proto:client/watch.proto:note L12-12 parent=file:client/watch.proto
        node struct sym:proto:vendor/mvccpb/kv.proto:KeyValue L4-6 parent=file:vendor/mvccpb/kv.proto
        node property sym:proto:vendor/mvccpb/kv.proto:KeyValue.key L5-5 parent=sym:proto:vendor/mvccpb/kv.proto:KeyValue
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> route:api/etcdserverpb/rpc.proto:GET /v3/kv/:key structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Range structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Watch structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> route:api/etcdserverpb/rpc.proto:POST /v3/kv/range structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:KV structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:KV structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:KV.Range structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:KV.Watch structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header.value structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.ASCEND structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.NONE structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.headers structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.key structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.kv structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.name structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.sort_order structural 1.00
        edge CONTAINS file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.at structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.header structural 1.00
        edge DEFINES file:api/etcdserverpb/rpc.proto -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.kvs structural 1.00
        edge CONTAINS file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event structural 1.00
        edge DEFINES file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event structural 1.00
        edge DEFINES file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event.EventType structural 1.00
        edge DEFINES file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event.EventType.DELETE structural 1.00
        edge DEFINES file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event.EventType.PUT structural 1.00
        edge DEFINES file:api/mvccpb/event.proto -> sym:proto:api/mvccpb/event.proto:Event.type structural 1.00
        edge CONTAINS file:api/mvccpb/kv.proto -> sym:proto:api/mvccpb/kv.proto:KeyValue structural 1.00
        edge DEFINES file:api/mvccpb/kv.proto -> sym:proto:api/mvccpb/kv.proto:KeyValue structural 1.00
        edge DEFINES file:api/mvccpb/kv.proto -> sym:proto:api/mvccpb/kv.proto:KeyValue.key structural 1.00
        edge CONTAINS file:api/v3lock/lock.proto -> route:api/v3lock/lock.proto:GRPC /v3lockpb.Lock/Lock structural 1.00
        edge CONTAINS file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:Lock structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:Lock structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:Lock.Lock structural 1.00
        edge CONTAINS file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockRequest structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockRequest structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockRequest.ev structural 1.00
        edge CONTAINS file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockResponse structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockResponse structural 1.00
        edge DEFINES file:api/v3lock/lock.proto -> sym:proto:api/v3lock/lock.proto:LockResponse.kv structural 1.00
        edge CONTAINS file:client/watch.proto -> sym:proto:client/watch.proto:Watched structural 1.00
        edge DEFINES file:client/watch.proto -> sym:proto:client/watch.proto:Watched structural 1.00
        edge DEFINES file:client/watch.proto -> sym:proto:client/watch.proto:Watched.event structural 1.00
        edge DEFINES file:client/watch.proto -> sym:proto:client/watch.proto:Watched.kv structural 1.00
        edge CONTAINS file:client/watch.proto -> sym:proto:client/watch.proto:note structural 1.00
        edge DEFINES file:client/watch.proto -> sym:proto:client/watch.proto:note structural 1.00
        edge CONTAINS file:vendor/mvccpb/kv.proto -> sym:proto:vendor/mvccpb/kv.proto:KeyValue structural 1.00
        edge DEFINES file:vendor/mvccpb/kv.proto -> sym:proto:vendor/mvccpb/kv.proto:KeyValue structural 1.00
        edge DEFINES file:vendor/mvccpb/kv.proto -> sym:proto:vendor/mvccpb/kv.proto:KeyValue.key structural 1.00
        edge HANDLES_ROUTE route:api/etcdserverpb/rpc.proto:GET /v3/kv/:key -> sym:proto:api/etcdserverpb/rpc.proto:KV.Range L17 same-file 0.95
        edge HANDLES_ROUTE route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Range -> sym:proto:api/etcdserverpb/rpc.proto:KV.Range L13 same-file 0.95
        edge HANDLES_ROUTE route:api/etcdserverpb/rpc.proto:GRPC /etcdserverpb.KV/Watch -> sym:proto:api/etcdserverpb/rpc.proto:KV.Watch L20 same-file 0.95
        edge HANDLES_ROUTE route:api/etcdserverpb/rpc.proto:POST /v3/kv/range -> sym:proto:api/etcdserverpb/rpc.proto:KV.Range L15 same-file 0.95
        edge HANDLES_ROUTE route:api/v3lock/lock.proto:GRPC /v3lockpb.Lock/Lock -> sym:proto:api/v3lock/lock.proto:Lock.Lock L7 same-file 0.95
        edge HAS_METHOD sym:proto:api/etcdserverpb/rpc.proto:KV -> sym:proto:api/etcdserverpb/rpc.proto:KV.Range structural 1.00
        edge HAS_METHOD sym:proto:api/etcdserverpb/rpc.proto:KV -> sym:proto:api/etcdserverpb/rpc.proto:KV.Watch structural 1.00
        edge CONTAINS sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header structural 1.00
        edge CONTAINS sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.headers structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.key structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.kv structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.name structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.sort_order structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header.value structural 1.00
        edge CONTAINS sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.ASCEND structural 1.00
        edge CONTAINS sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder.NONE structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeResponse -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.at structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeResponse -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.header structural 1.00
        edge HAS_PROPERTY sym:proto:api/etcdserverpb/rpc.proto:RangeResponse -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.kvs structural 1.00
        edge CONTAINS sym:proto:api/mvccpb/event.proto:Event -> sym:proto:api/mvccpb/event.proto:Event.EventType structural 1.00
        edge HAS_PROPERTY sym:proto:api/mvccpb/event.proto:Event -> sym:proto:api/mvccpb/event.proto:Event.type structural 1.00
        edge CONTAINS sym:proto:api/mvccpb/event.proto:Event.EventType -> sym:proto:api/mvccpb/event.proto:Event.EventType.DELETE structural 1.00
        edge CONTAINS sym:proto:api/mvccpb/event.proto:Event.EventType -> sym:proto:api/mvccpb/event.proto:Event.EventType.PUT structural 1.00
        edge HAS_PROPERTY sym:proto:api/mvccpb/kv.proto:KeyValue -> sym:proto:api/mvccpb/kv.proto:KeyValue.key structural 1.00
        edge HAS_METHOD sym:proto:api/v3lock/lock.proto:Lock -> sym:proto:api/v3lock/lock.proto:Lock.Lock structural 1.00
        edge HAS_PROPERTY sym:proto:api/v3lock/lock.proto:LockRequest -> sym:proto:api/v3lock/lock.proto:LockRequest.ev structural 1.00
        edge HAS_PROPERTY sym:proto:api/v3lock/lock.proto:LockResponse -> sym:proto:api/v3lock/lock.proto:LockResponse.kv structural 1.00
        edge HAS_PROPERTY sym:proto:client/watch.proto:Watched -> sym:proto:client/watch.proto:Watched.event structural 1.00
        edge HAS_PROPERTY sym:proto:client/watch.proto:Watched -> sym:proto:client/watch.proto:Watched.kv structural 1.00
        edge HAS_PROPERTY sym:proto:vendor/mvccpb/kv.proto:KeyValue -> sym:proto:vendor/mvccpb/kv.proto:KeyValue.key structural 1.00
    "#]]
    .assert_eq(&render_fixture_graph(FIXTURE));
}

#[test]
fn imports_and_types_resolve() {
    expect![[r#"
        edge IMPORTS file:api/etcdserverpb/rpc.proto -> file:api/mvccpb/kv.proto L5 import-resolved 0.95
        edge IMPORTS file:api/mvccpb/kv.proto -> file:api/mvccpb/event.proto L4 import-resolved 0.95
        edge IMPORTS file:api/v3lock/lock.proto -> file:api/mvccpb/kv.proto L4 import-resolved 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:KV.Range -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest L13 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:KV.Range -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse L13 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:KV.Watch -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest L20 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:KV.Watch -> sym:proto:api/etcdserverpb/rpc.proto:RangeResponse L20 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.headers -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header L34 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.kv -> sym:proto:api/mvccpb/kv.proto:KeyValue L32 import-resolved 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.sort_order -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.SortOrder L29 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.header -> sym:proto:api/etcdserverpb/rpc.proto:RangeRequest.Header L42 same-file 0.95
        edge REFERS_TO sym:proto:api/etcdserverpb/rpc.proto:RangeResponse.kvs -> sym:proto:api/mvccpb/kv.proto:KeyValue L41 import-resolved 0.95
        edge REFERS_TO sym:proto:api/mvccpb/event.proto:Event.type -> sym:proto:api/mvccpb/event.proto:Event.EventType L9 same-file 0.95
        edge REFERS_TO sym:proto:api/v3lock/lock.proto:Lock.Lock -> sym:proto:api/v3lock/lock.proto:LockRequest L7 same-file 0.95
        edge REFERS_TO sym:proto:api/v3lock/lock.proto:Lock.Lock -> sym:proto:api/v3lock/lock.proto:LockResponse L7 same-file 0.95
        edge REFERS_TO sym:proto:api/v3lock/lock.proto:LockRequest.ev -> sym:proto:api/mvccpb/event.proto:Event L10 import-resolved 0.95
        edge REFERS_TO sym:proto:api/v3lock/lock.proto:LockResponse.kv -> sym:proto:api/mvccpb/kv.proto:KeyValue L11 import-resolved 0.95
        edge REFERS_TO sym:proto:client/watch.proto:Watched.event -> sym:proto:api/mvccpb/event.proto:Event L7 name-only 0.30
    "#]]
    .assert_eq(&render_fixture_resolution(FIXTURE));
}

/// The service both gRPC implementation tests implement.
const HELLOWORLD: &str = r#"
//- /protos/helloworld.proto
syntax = "proto3";
package helloworld;

service Greeter {
  rpc SayHello (HelloRequest) returns (HelloReply) {}
  rpc SayGoodbye (HelloRequest) returns (HelloReply) {}
}

message HelloRequest { string name = 1; }
message HelloReply { string message = 1; }
"#;

/// A Python class on a generated servicer base (`helloworld_pb2_grpc.GreeterServicer`, whose
/// module is generated at build time and not in the tree), and a TypeScript class implementing
/// a generated server interface (`IGreeterServer`, `GreeterServer`), implement the service:
/// their methods named like the service's rpcs (`sayHello` for `SayHello` too) handle their
/// routes; other methods, and a servicer of a service no `.proto` declares, handle nothing.
#[test]
fn servicer_classes_handle_their_rpcs() {
    let fixture = &(HELLOWORLD.to_string()
        + r#"//- /server.py
import helloworld_pb2_grpc
from other_pb2_grpc import UnknownServicer


class Greeter(helloworld_pb2_grpc.GreeterServicer):
    def SayHello(self, request, context):
        return reply(request)

    def helper(self):
        pass


class Other(UnknownServicer):
    def SayHello(self, request, context):
        pass


def reply(request):
    return request
//- /src/server.ts
import { IGreeterServer } from './gen/helloworld_grpc_pb';
import { GreeterServer } from './gen/helloworld';

export class GreeterImpl implements IGreeterServer {
  sayHello(call: any, callback: any): void {}
  sayGoodbye(call: any, callback: any): void {}
  private helper(): void {}
}

export class TsProtoGreeter implements GreeterServer {
  SayGoodbye(call: any, callback: any): void {}
}

export class Health implements IHealthServer {
  check(): void {}
}
"#);
    let rows: String = render_fixture_resolution(fixture)
        .lines()
        .filter(|l| l.contains("HANDLES_ROUTE") || l.contains("server."))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayGoodbye -> sym:ts:src/server.ts:GreeterImpl.sayGoodbye L6 interface-method 0.80
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayGoodbye -> sym:ts:src/server.ts:TsProtoGreeter.SayGoodbye L11 interface-method 0.80
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayHello -> sym:py:server.py:Greeter.SayHello L6 interface-method 0.80
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayHello -> sym:ts:src/server.ts:GreeterImpl.sayHello L5 interface-method 0.80
        edge CALLS sym:py:server.py:Greeter.SayHello -> sym:py:server.py:reply L7 same-file 0.95
    "#]]
    .assert_eq(&rows);
}

/// Implementations registered on a server rather than declared on a generated base: grpc-js
/// `server.addService(...)` with grpc-tools' `GreeterService` (a key naming a function, a
/// shorthand key, a method written in place) or proto-loader's `<pkg>.helloworld.Greeter.service`,
/// and Connect's `router.service(Greeter, {...})` in a file importing Connect, handle the
/// rpcs named by their keys. A registration is no route of its own; a key that names no rpc
/// and a service no `.proto` declares handle nothing, and `x.service(A, {...})` in a file that
/// does not import Connect is no registration.
#[test]
fn registered_implementations_handle_their_rpcs() {
    let fixture = &(HELLOWORLD.to_string()
        + r#"//- /src/main.ts
import * as grpc from '@grpc/grpc-js';
import * as services from './gen/helloworld_grpc_pb';
import { greet } from './greet';

function sayHello(call: any, callback: any) {
  callback(null, greet(call.request));
}

export function main() {
  const server = new grpc.Server();
  server.addService(services.GreeterService, {
    sayHello: sayHello,
    sayGoodbye(call: any, callback: any) {
      callback(null, greet(call.request));
    },
    notAnRpc: sayHello,
  });
  server.addService(services.HealthService, { check: sayHello });
}
//- /src/loader.ts
import { greet } from './greet';
const sayGoodbye = (call: any, cb: any) => cb(null, greet(call.request));
export function start(server: any, proto: any) {
  server.addService(proto.helloworld.Greeter.service, { sayGoodbye });
}
//- /src/greet.ts
export function greet(x: any) { return x; }
//- /src/connect.ts
import type { ConnectRouter } from "@connectrpc/connect";
import { Greeter } from "./gen/helloworld_connect";
import { greet } from './greet';
export default (router: ConnectRouter) =>
  router.service(Greeter, {
    async sayHello(req) {
      return greet(req);
    },
  });
//- /src/other.ts
export function wire(registry: any, A: any) {
  registry.service(A, { sayHello: () => 1 });
}
"#);
    let rows: String = render_fixture_resolution(fixture)
        .lines()
        .filter(|l| l.contains("HANDLES_ROUTE") || l.contains("route:src") || l.contains("$GRPC"))
        .map(|l| format!("{l}\n"))
        .collect();
    expect![[r#"
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayGoodbye -> sym:ts:src/loader.ts:sayGoodbye L4 same-file 0.95
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayGoodbye -> sym:ts:src/main.ts:main.sayGoodbye L13 same-file 0.95
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayHello -> sym:ts:src/connect.ts:sayHello L6 same-file 0.95
        edge HANDLES_ROUTE route:protos/helloworld.proto:GRPC /helloworld.Greeter/SayHello -> sym:ts:src/main.ts:sayHello L12 same-file 0.95
    "#]]
    .assert_eq(&rows);
}

/// Every shape of a `google.api.http` rule: a method key, `additional_bindings` (nested), a
/// `custom` method, path variables with and without a pattern; `body` is no binding, and an
/// option other than `google.api.http` none.
#[test]
fn http_bindings_of_every_shape() {
    let routes: String = render_fixture_facts(
        r#"
//- /api.proto
package shop.v1;
service Shelves {
  rpc Get(Req) returns (Req) {
    option (google.api.http) = {
      get: "/v1/{name=shelves/*}"
      body: "*"
      additional_bindings { delete: "v1/shelves/{id}" }
      additional_bindings { custom { kind: "head" path: "/v1/shelves/{id}" } }
    };
    option (other.http) = { get: "/not/a/route" };
  }
}
message Req {}
"#,
    )
    .lines()
    .filter(|l| l.starts_with("route "))
    .map(|l| format!("{l}\n"))
    .collect();
    expect![[r#"
        route L3 grpc GRPC /shop.v1.Shelves/Get handler=sym:Shelves.Get in=Shelves
        route L5 grpc-gateway GET /v1/:name handler=sym:Shelves.Get in=Shelves.Get
        route L7 grpc-gateway DELETE /v1/shelves/:id handler=sym:Shelves.Get in=Shelves.Get
        route L8 grpc-gateway HEAD /v1/shelves/:id handler=sym:Shelves.Get in=Shelves.Get
    "#]]
    .assert_eq(&routes);
}
