#!/usr/bin/env python3
# The layers as counted for docs/architecture.md: lines in src/web, and the
# database functions called from outside src/db (from more than one place;
# from src/web at all). Resolves `use crate::db::...` per file.
#     scripts/one-door-metrics.py src
import os,re,sys,collections
root=sys.argv[1]
def files(d):
    for r,_,fs in os.walk(d):
        for f in fs:
            if f.endswith('.rs'): yield os.path.join(r,f)
dbmods={}
for p in files(os.path.join(root,'db')):
    rel=os.path.relpath(p,os.path.join(root,'db'))[:-3]
    mod=rel.split('/')[0]
    dbmods.setdefault(mod,set()).update(re.findall(r'^pub fn (\w+)',open(p).read(),re.M))
places=collections.defaultdict(set)
for p in files(root):
    if '/src/db/' in p+'/': 
        if os.path.relpath(p,root).startswith('db/'): continue
    s=open(p).read()
    imported=set()
    for m in re.finditer(r'use (?:crate|super(?:::super)*)::db::\{([^}]*)\}',s):
        for part in m.group(1).split(','):
            part=part.strip().split('::')[0].split(' as ')[0].strip()
            if part in dbmods: imported.add(part)
    for m in re.finditer(r'use (?:crate|super(?:::super)*)::db::(\w+)',s):
        if m.group(1) in dbmods: imported.add(m.group(1))
    for mod in dbmods:
        pats=[r'crate::db::%s::(\w+)\s*\('%mod]
        if mod in imported: pats.append(r'(?<![\w:])%s::(\w+)\s*\('%mod)
        for pat in pats:
            for m in re.finditer(pat,s):
                if m.group(1) in dbmods[mod]:
                    places[(mod,m.group(1))].add((os.path.relpath(p,root), s[:m.start()].count('\n')+1))
multi=[k for k,v in places.items() if len(v)>1]
web=[k for k,v in places.items() if any(f.startswith('web/') for f,_ in v)]
webmulti=[k for k,v in places.items() if len({f for f,_ in v if f.startswith('web/')})>1]
lines=sum(len(open(p).read().split('\n'))-1 for p in files(os.path.join(root,'web')))
print(f'{root}: src/web {lines} lines; db functions called from outside db {len(places)}, from more than one place {len(multi)}; called from src/web {len(web)}, from two or more web files {len(webmulti)}')
