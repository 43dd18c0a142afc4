// Cross-checks our G1/G2 operations, encodings and pairing against @noble/curves (BLS12-381).
// Usage: node noble_check.cjs RESULTS.json — prints {"ok": bool, "checks": n, "failures": [...],
// "pairing_relation": "equal"|"cube"} and exits 0 when every check passed, 1 otherwise.
'use strict';
const fs = require('fs');
const { bls12_381 } = require('@noble/curves/bls12-381');

const G1 = bls12_381.G1.ProjectivePoint;
const G2 = bls12_381.G2.ProjectivePoint;
const { Fp12 } = bls12_381.fields;

const data = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const failures = [];
let checks = 0;
const expect = (cond, what) => { ++checks; if (!cond) failures.push(what); };

const big = (s) => BigInt(s);
const hex = (bytes) => Buffer.from(bytes).toString('hex');
const g1_of = (p) => G1.fromAffine({ x: big(p[0]), y: big(p[1]) });
const g2_of = (p) => G2.fromAffine({ x: { c0: big(p[0][0]), c1: big(p[0][1]) },
                                      y: { c0: big(p[1][0]), c1: big(p[1][1]) } });

for (const [name, G, of] of [['g1', G1, g1_of], ['g2', G2, g2_of]]) {
  const r = data[name];
  const a = big(r.a), b = big(r.b), k = big(r.k);
  const P = G.BASE.multiply(a), Q = G.BASE.multiply(b);
  expect(of(r.p).equals(P), `${name}: a·G`);
  expect(of(r.q).equals(Q), `${name}: b·G`);
  expect(of(r.sum).equals(P.add(Q)), `${name}: P + Q`);
  expect(of(r.dbl).equals(P.double()), `${name}: 2P`);
  expect(of(r.kp).equals(P.multiply(k)), `${name}: k·P`);
  expect(hex(P.toRawBytes(true)) === r.p_compressed, `${name}: compressed encoding of P`);
  expect(hex(P.toRawBytes(false)) === r.p_uncompressed, `${name}: uncompressed encoding of P`);
}

// Our final exponentiation computes f^((p¹²−1)/r) exactly; noble's hard part (Hayashida–Hayasaka–
// Teruya, ePrint 2020/875) may compute its cube. Either relation pins the pairing down.
const P = G1.BASE.multiply(big(data.pairing.a));
const Q = G2.BASE.multiply(big(data.pairing.b));
const e = bls12_381.pairing(P, Q);
const c = data.pairing.value;  // 12 decimal strings, Fp12 = c0 + c1·w, Fp6 = c0 + c1·v + c2·v², Fp2 = c0 + c1·u
const fp2 = (i) => ({ c0: big(c[i]), c1: big(c[i + 1]) });
const ours = { c0: { c0: fp2(0), c1: fp2(2), c2: fp2(4) }, c1: { c0: fp2(6), c1: fp2(8), c2: fp2(10) } };
let relation = 'none';
if (Fp12.eql(e, ours)) relation = 'equal';
else if (Fp12.eql(e, Fp12.pow(ours, 3n))) relation = 'cube';
expect(relation !== 'none', 'pairing value');

const ok = failures.length === 0;
console.log(JSON.stringify({ ok, checks, failures, pairing_relation: relation }));
process.exit(ok ? 0 : 1);
