"""Coverage of the issue-21 languages against grep baselines (docs/BENCHMARKS.md, "The
languages of issue 21"): indexes ROOT with codegraph, exports it, and compares what the graph
holds with what a regular expression counts in the files.

    python3 benches/language_coverage.py BIN ROOT {elixir|k8s|shell|tf}

BIN is a codegraph binary (e.g. ./target/dist/codegraph); the index goes to the default cache.
"""
import json, collections, re, os, sys, subprocess

if len(sys.argv) != 4:
    sys.exit(__doc__)
bin_, root, lang = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
subprocess.run([bin_, 'index', root], check=True, capture_output=True)
out = subprocess.run([bin_, 'export', root], check=True, capture_output=True, text=True).stdout
nodes={};edges=[];unres=[]
for l in out.splitlines():
    o=json.loads(l)
    if o['type']=='node': nodes[o['id']]=o
    elif o['type']=='edge': edges.append(o)
    else: unres.append(o)
def files(exts):
    for dp,dn,fn in os.walk(root):
        for f in fn:
            if f.endswith(exts): yield os.path.join(dp,f)
if lang=='elixir':
    mods=0; strmods=0
    for p in files(('.ex','.exs')):
        t=open(p,errors='replace').read()
        # strip heredocs
        t2=re.sub(r'(\"\"\"|\'\'\').*?\1','',t,flags=re.S)
        strmods+=len(re.findall(r'^\s*defmodule\s',t,re.M))
        mods+=len(re.findall(r'^\s*defmodule\s',t2,re.M))
    ex=[n for n in nodes.values() if n['id'].startswith('sym:ex:')]
    k=collections.Counter(n['kind'] for n in ex)
    m=len([n for n in ex if n['kind'] in('module','interface') and not (n.get('signature') or '').startswith('defimpl')])
    print('defmodule lines',strmods,'of them outside heredocs',mods,'module nodes',m, '%.3f'%(m/mods)); print(k)
    c=collections.Counter((e['kind'],e.get('reason')) for e in edges if e['src'].startswith('sym:ex') and e['kind'] in('CALLS','IMPORTS','IMPLEMENTS','REFERS_TO'))
    print(c)
    routes=[n for n in nodes.values() if n['kind']=='route' and n['file'].endswith(('.ex','.exs'))]
    print('phoenix routes',len(routes),'HANDLES_ROUTE',len([e for e in edges if e['kind']=='HANDLES_ROUTE' and e['src'] in nodes and nodes[e['src']]['file'].endswith(('.ex','.exs'))]))
    u=[x for x in unres if x['file'].endswith(('.ex','.exs'))]
    print('unresolved',len(u),collections.Counter(x['callee'] for x in u).most_common(12))
elif lang=='k8s':
    docs=0; svc=0
    for p in files(('.yaml','.yml')):
        t=open(p,errors='replace').read()
        for d in re.split(r'^---.*$',t,flags=re.M):
            if re.search(r'^apiVersion:',d,re.M) and re.search(r'^kind:',d,re.M) and '{{' not in d:
                docs+=1
                if re.search(r'^kind:\s*Service\s*$',d,re.M) and re.search(r'^\s+selector:',d,re.M): svc+=1
    k8s=[n for n in nodes.values() if n['id'].startswith('sym:k8s:')]
    print('manifest docs (grep, non-template)',docs,'object nodes',len(k8s),'%.3f'%(len(k8s)/max(docs,1)))
    sel=set(e['src'] for e in edges if e.get('reason')=='label-selector')
    services=[n for n in k8s if n['name'].startswith('Service/')]
    withsel=[s for s in services if s['id'] in sel]
    print('services',len(services),'(with a selector by grep',svc,') with selector edges',len(withsel))
    print(collections.Counter((e['kind'],e.get('reason')) for e in edges if e['src'].startswith('sym:k8s')))
    u=[x for x in unres if x['file'].endswith(('.yaml','.yml'))]
    print('unresolved',len(u),collections.Counter(x['callee'].split('/')[0] for x in u).most_common(8))
elif lang=='shell':
    grep=set()
    for p in files(('.sh','.bash')):
        rel=os.path.relpath(p,root)
        for i,line in enumerate(open(p,errors='replace')):
            m=re.match(r'^\s*(?:function\s+([A-Za-z_][\w:.-]*)|([A-Za-z_][\w:.-]*)\s*\(\)\s*)',line)
            if m: grep.add((rel,m.group(1) or m.group(2)))
    fns=set((n['file'],n['name']) for n in nodes.values() if n['id'].startswith('sym:sh:'))
    print('function defs (grep)',len(grep),'nodes',len(fns),'found %.3f'%(len(grep&fns)/max(1,len(grep))),'missing',sorted(grep-fns)[:6])
    calls=[e for e in edges if e['kind']=='CALLS' and e['src'].startswith('sym:sh:') or e['kind']=='CALLS' and e['src'].startswith('file:') and nodes.get(e['src'],{}).get('language')=='shell']
    print('CALLS pairs',len(set((e['src'],e['dst']) for e in calls)), collections.Counter(e['reason'] for e in calls))
    print('concepts',collections.Counter(n['kind'] for n in nodes.values() if n['id'].startswith('concept:')))
    u=[x for x in unres if x['file'].endswith(('.sh','.bash'))]
    print('unresolved',len(u),collections.Counter(x['callee'] for x in u).most_common(8))
elif lang=='tf':
    v=r=0; refs=set()
    for p in files(('.tf',)):
        t=open(p,errors='replace').read()
        v+=len(re.findall(r'^\s*variable\s+"',t,re.M)); r+=len(re.findall(r'^\s*resource\s+"',t,re.M))
        d=os.path.relpath(os.path.dirname(p),root); d='' if d=='.' else d
        for m in re.findall(r'\bvar\.([A-Za-z0-9_-]+)',t): refs.add((d,m))
    tf=[n for n in nodes.values() if n['id'].startswith('sym:tf:')]
    nv=len([n for n in tf if n['name'].startswith('var.')]); nr=len([n for n in tf if n['kind']=='resource' and not n['name'].startswith('data.')])
    print('variable blocks',v,'nodes',nv,'resource blocks',r,'nodes',nr)
    hit=set()
    for e in edges:
        if e['kind']=='REFERS_TO' and ':var.' in e['dst'] and e['dst'] in nodes:
            d=nodes[e['dst']]; hit.add((os.path.dirname(d['file']),d['qualified_name'][4:]))
    print('distinct (module,var) referenced',len(refs),'with REFERS_TO',len(refs&hit),'%.3f'%(len(refs&hit)/max(1,len(refs))))
    u=[x for x in unres if x['file'].endswith('.tf')]
    print('unresolved',len(u),[x['callee'] for x in u][:10])
