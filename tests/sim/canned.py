#!/usr/bin/env python3
# canned.py: writes qemu-canned-V.c, the answers a real QEMU V (7.2 unless
# --version says) gave to the setup's static queries, from QMIGRATE_QMP_TRACE
# traces (qmp/qmp-trace.c) kept with QMIGRATE_TRACE_KEEP=DIR by real-QEMU
# tests, or those of tests/traces/qmp:
#     tests/sim/canned.py DIR/handoff-migrate-late-unix/* ... > qemu-canned-7.2.c
#     tests/sim/canned.py --version 10.0 tests/traces/qmp/precopy-10.0/* ... \
#         > qemu-canned-10.0.c
import json, os, sys, textwrap

version = '7.2'
files = sys.argv[1:]
if files[:1] == ['--version']:
    version, files = files[1], files[2:]
major, minor = (int(x) for x in version.split('.'))

DYNAMIC = {'qmp_capabilities', 'query-migrate', 'query-status', 'migrate',
           'migrate-incoming', 'migrate_cancel', 'cont', 'stop', 'quit',
           'migrate-start-postcopy', 'migrate-set-capabilities',
           'migrate-set-parameters', 'migrate-recover', 'query-block-jobs',
           'migrate-pause', 'migrate-continue'}

def key(cmd, args):
    a = args or {}
    return '|'.join([cmd] + [str(a.get(k, '')) for k in
                             ('path', 'property', 'command-line')])

def cstr(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'

seen = {}
for f in files:
    pend, ours = {}, False
    for line in open(f):
        r = json.loads(line)
        m, d = r['m'], r['d']
        if d == '<' and 'QMP' in m:
            q = m['QMP']['version']['qemu']
            ours = (q['major'], q['minor']) == (major, minor)
        if not ours:
            continue
        if d == '>' and 'execute' in m:
            pend[m.get('id')] = (m['execute'], m.get('arguments'))
        elif d == '<' and 'id' in m and m['id'] in pend:
            c, a = pend.pop(m['id'])
            if c not in DYNAMIC and 'return' in m and key(c, a) not in seen:
                seen[key(c, a)] = m
if version == '7.2':
    print('/*')
    print(" * qemu-canned-7.2.c: what a real QEMU 7.2 answered to the setup's static")
    print(' * queries (generated from the QMIGRATE_QMP_TRACE traces of')
    print(' * handoff-migrate-late-unix, migrate-precopy, migrate-tls and')
    print(' * migrate-postcopy-recover; tests/sim/canned.py).  The key is the command')
    print(' * and its path, property and command-line arguments, "|"-joined.')
    print(' */')
else:
    dirs = sorted({os.path.basename(os.path.dirname(f)) for f in files})
    print('/*')
    print(" * qemu-canned-%s.c: what a real QEMU %s answered to the setup's static"
          % (version, version))
    text = ('queries (generated from the traces of tests/traces/qmp %s; '
            'tests/sim/canned.py --version %s).  The key is the command and '
            'its path, property and command-line arguments, "|"-joined.'
            % (', '.join(dirs), version))
    for l in textwrap.wrap(text, 72):
        print(' * ' + l)
    print(' */')
print('#include <stddef.h>\n\n#include "qemu-canned.h"\n')
print('const struct canned canned_%d_%d[] = {' % (major, minor))
for k, m in sorted(seen.items()):
    body = {kk: vv for kk, vv in m.items() if kk != 'id'}
    js = json.dumps(body, separators=(',', ':'))
    parts = [js[i:i + 60] for i in range(0, len(js), 60)]
    print('\t{ ' + cstr(k) + ',')
    print('\t    ' + '\n\t    '.join(cstr(p) for p in parts) + ' },')
print('\t{ NULL, NULL }')
print('};')
