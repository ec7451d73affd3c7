// Reads DIR/{client,server,server-via-legacy-upstream}-REVISION/<scenario>-<timestamp>/checks.json (as conformance/run
// leaves them) and prints one Markdown row per scenario and revision; the newest run wins.
// With --docs FILE it replaces the text between FILE's summary markers instead of printing.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const [dir, option, docs] = process.argv.slice(2);
if (!existsSync(dir)) {
    console.error(`conformance/summary: no results at ${dir}; run conformance/run first`);
    process.exit(2);
}

function* checkFiles(at) {
    for (const name of readdirSync(at)) {
        const path = join(at, name);
        if (statSync(path).isDirectory()) {
            yield* checkFiles(path);
        } else if (name === 'checks.json') {
            yield path;
        }
    }
}

const rows = new Map();
for (const leg of readdirSync(dir).sort()) {
    const match = /^(client|server)(-via-legacy-upstream)?-(\d{4}-\d\d-\d\d)$/.exec(leg);
    if (!match || !statSync(join(dir, leg)).isDirectory()) {
        continue;
    }
    const [, kind, via, revision] = match;
    const role = via ? `${kind} via legacy upstream` : kind;
    for (const file of checkFiles(join(dir, leg))) {
        const run = relative(join(dir, leg), join(file, '..'));
        const stamp = /-(\d{4}-\d\d-\d\dT[\d-]+Z)$/.exec(run);
        const named = stamp ? run.slice(0, -stamp[0].length) : run;
        // the suite names a server scenario's directory server-<scenario>
        const scenario = kind === 'server' ? named.replace(/^server-/, '') : named;
        const key = `${role} ${revision} ${scenario}`;
        if (rows.has(key) && rows.get(key).stamp > (stamp?.[1] ?? '')) {
            continue;
        }
        const count = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0 };
        for (const check of JSON.parse(readFileSync(file, 'utf8'))) {
            if (check.status in count) {
                count[check.status]++;
            }
        }
        rows.set(key, { role, revision, scenario, stamp: stamp?.[1] ?? '', count });
    }
}

const verdict = (c) => (c.FAILURE > 0 ? 'fail' : c.WARNING > 0 ? 'warn' : c.SUCCESS === 0 ? 'nothing checked' : 'pass');
const detail = [
    '| role | revision | scenario | passed | failed | warnings | skipped | result |',
    '|---|---|---|---:|---:|---:|---:|---|',
];
const totals = new Map();
// auth scenarios last and totalled apart: they all wait for an OAuth client
const isAuth = (row) => row.scenario.startsWith('auth/');
for (const row of [...rows.values()].sort((a, b) => a.role.localeCompare(b.role)
        || isAuth(a) - isAuth(b) || a.revision.localeCompare(b.revision) || a.scenario.localeCompare(b.scenario))) {
    const c = row.count;
    detail.push(`| ${row.role} | ${row.revision} | ${row.scenario} | ${c.SUCCESS} | ${c.FAILURE} | ${c.WARNING} | ${c.SKIPPED} | ${verdict(c)} |`);
    const leg = `${row.role}${isAuth(row) ? ' (auth)' : ''}|${row.revision}`;
    const total = totals.get(leg) ?? { scenarios: 0, passing: 0, SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0 };
    total.scenarios++;
    total.passing += verdict(c) === 'pass' ? 1 : 0;
    for (const status of ['SUCCESS', 'FAILURE', 'WARNING', 'SKIPPED']) {
        total[status] += c[status];
    }
    totals.set(leg, total);
}
const out = [
    '| role | revision | scenarios passing | checks passed | failed | warnings | skipped |',
    '|---|---|---:|---:|---:|---:|---:|',
];
for (const [leg, t] of totals) {
    const [role, revision] = leg.split('|');
    out.push(`| ${role} | ${revision} | ${t.passing}/${t.scenarios} | ${t.SUCCESS} | ${t.FAILURE} | ${t.WARNING} | ${t.SKIPPED} |`);
}
out.push('', ...detail);

const table = out.join('\n');
if (option === '--docs') {
    const start = '<!-- summary:start -->';
    const end = '<!-- summary:end -->';
    const text = readFileSync(docs, 'utf8');
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) {
        console.error(`conformance/summary: ${docs} has no ${start} ... ${end} markers`);
        process.exit(2);
    }
    writeFileSync(docs, text.slice(0, from + start.length) + '\n' + table + '\n' + text.slice(to));
    console.log(`conformance/summary: updated ${docs}`);
} else {
    console.log(table);
}
