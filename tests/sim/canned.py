#!/usr/bin/env python3
# canned.py: writes qemu-canned-7.2.c, the answers a real QEMU 7.2 gave to
# the setup's static queries, from QMIGRATE_QMP_TRACE traces (qmp/qmp-trace.c)
# kept with QMIGRATE_TRACE_KEEP=DIR by real-QEMU tests:
#     tests/sim/canned.py DIR/handoff-migrate-late-unix/* ... > qemu-canned-7.2.c
import json, sys

DYNAMIC = {'qmp_capabilities', 'query-migrate', 'query-status', 'migrate',
           'migrate-incoming', 'migrate_cancel', 'cont', 'stop', 'quit',
           'migrate-start-postcopy', 'migrate-set-capabilities',
           'migrate-set-parameters', 'migrate-recover', 'query-block-jobs',
           'migrate-pause'}

def key(cmd, args):
    a = args or {}
    return '|'.join([cmd] + [str(a.get(k, '')) for k in
                             ('path', 'property', 'command-line')])

def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'

seen = {}
for f in sys.argv[1:]:
    pend, v7 = {}, False
    for line in open(f):
        r = json.loads(line)
        m, d = r['m'], r['d']
        if d == '<' and 'QMP' in m:
            v7 = m['QMP']['version']['qemu']['major'] == 7
        if not v7:
            continue
        if d == '>':
            pend[m['id']] = (m['execute'], m.get('arguments'))
        elif d == '<' and 'id' in m and m['id'] in pend:
            c, a = pend.pop(m['id'])
            if c not in DYNAMIC and key(c, a) not in seen:
                seen[key(c, a)] = m
print('/*')
print(" * qemu-canned-7.2.c: what a real QEMU 7.2 answered to the setup's static")
print(' * queries (generated from the QMIGRATE_QMP_TRACE traces of')
print(' * handoff-migrate-late-unix, migrate-precopy, migrate-tls and')
print(' * migrate-postcopy-recover; tests/sim/canned.py).  The key is the command')
print(' * and its path, property and command-line arguments, "|"-joined.')
print(' */')
print('#include <stddef.h>\n\n#include "qemu-stub.h"\n')
print('const struct canned canned_7_2[] = {')
for k, m in sorted(seen.items()):
    body = {kk: vv for kk, vv in m.items() if kk != 'id'}
    js = json.dumps(body, separators=(',', ':'))
    parts = [js[i:i + 60] for i in range(0, len(js), 60)]
    print('\t{ ' + cstr(k) + ',')
    print('\t    ' + '\n\t    '.join(cstr(p) for p in parts) + ' },')
print('\t{ NULL, NULL }')
print('};')
