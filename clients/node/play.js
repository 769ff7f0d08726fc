#!/usr/bin/env node
// A small Node.js client for the smear-dsl referee (any language can play): it joins a seat at a
// table, follows the table's events, and whenever it is its turn plays a random legal move taken
// from GetView. Usage: node play.js --server HOST:PORT --table ID --seat N [--token T]
'use strict';
const path = require('path');
const crypto = require('crypto');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO = path.join(__dirname, '..', '..', 'proto', 'smear', 'referee', 'v1', 'referee.proto');

function args() {
  const out = {};
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
  if (!out.server || !out.table || out.seat === undefined) {
    console.error('usage: node play.js --server HOST:PORT --table ID --seat N [--token T]');
    process.exit(2);
  }
  return out;
}

function call(client, method, request, metadata) {
  return new Promise((resolve, reject) => {
    client[method](request, metadata || new grpc.Metadata(), (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function main() {
  const opts = args();
  const def = protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true });
  const { Referee } = grpc.loadPackageDefinition(def).smear.referee.v1;
  const client = new Referee(opts.server, grpc.credentials.createInsecure());
  let token = opts.token;
  if (!token) {
    const joined = await call(client, 'JoinTable', { table_id: opts.table, seat: Number(opts.seat) });
    token = joined.token;
  }
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${token}`);
  let moves = 0;
  let busy = false;
  let again = false; // an event arrived while we were busy: look once more before resting
  let done = false;

  const act = async () => {
    if (done) return;
    if (busy) { again = true; return; }
    busy = true;
    try {
      for (;;) {
        again = false;
        const view = await call(client, 'GetView', { table_id: opts.table }, md);
        if (view.finished) {
          done = true;
          console.log(JSON.stringify({ finished: true, moves, scores: view.scores, winner: view.winner }));
          stream.cancel();
          return;
        }
        if (view.turn !== view.seat || view.legal_moves.length === 0) {
          if (again) continue;
          return;
        }
        const move = view.legal_moves[crypto.randomInt(view.legal_moves.length)];
        try {
          await call(client, 'SubmitMove', {
            table_id: opts.table, move, expected_version: view.version, idempotency_key: crypto.randomUUID(),
          }, md);
          moves += 1;
        } catch (err) {
          if (err.code !== grpc.status.ABORTED) throw err; // a stale version: look again
        }
      }
    } finally {
      busy = false;
    }
  };

  const stream = client.WatchTable({ table_id: opts.table, after_seq: 0 }, md);
  stream.on('data', () => { act().catch((err) => { console.error(err.message); process.exit(1); }); });
  stream.on('error', (err) => {
    if (!done && err.code !== grpc.status.CANCELLED) { console.error(err.message); process.exit(1); }
  });
}

main().catch((err) => { console.error(err.message); process.exit(1); });
