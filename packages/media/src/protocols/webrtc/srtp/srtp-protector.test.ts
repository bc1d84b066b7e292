import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { RtpHeader, RtpPacket, SrtpSession } from 'werift';
import { SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80, SrtpProtector } from './srtp-protector.js';
import { importSrtpKeys, sendingKeys } from './werift-srtp.js';

/** Two werift SRTP sessions, sender and receiver of one key pair. */
function sessions(profile: number) {
  const keyLength = 16;
  const saltLength = profile === SRTP_AEAD_AES_128_GCM ? 12 : 14;
  const a = { key: randomBytes(keyLength), salt: randomBytes(saltLength) };
  const b = { key: randomBytes(keyLength), salt: randomBytes(saltLength) };
  const sender = new SrtpSession({
    profile,
    keys: { localMasterKey: a.key, localMasterSalt: a.salt, remoteMasterKey: b.key, remoteMasterSalt: b.salt },
  });
  const receiver = new SrtpSession({
    profile,
    keys: { localMasterKey: b.key, localMasterSalt: b.salt, remoteMasterKey: a.key, remoteMasterSalt: a.salt },
  });
  return { sender, receiver };
}

for (const [name, profile] of [
  ['AEAD_AES_128_GCM', SRTP_AEAD_AES_128_GCM],
  ['AES_CM_128_HMAC_SHA1_80', SRTP_AES128_CM_HMAC_SHA1_80],
] as const) {
  describe(`SRTP protection, ${name}`, () => {
    it('is byte for byte what werift produces, across a rollover, and werift decrypts it', () => {
      const { sender, receiver } = sessions(profile);
      const keys = sendingKeys({ srtp: sender } as never);
      assert.ok(keys);
      const protector = new SrtpProtector(keys);
      for (const [sequence, roc] of [
        [65_534, 0],
        [65_535, 0],
        [0, 1],
        [7, 1],
      ] as const) {
        const header = new RtpHeader({
          payloadType: 102,
          sequenceNumber: sequence,
          timestamp: 90_000,
          ssrc: 0x1234_5678,
        });
        const payload = randomBytes(1100);
        const expected = sender.encrypt(payload, header);
        const headerBytes = header.serialize(header.serializeSize);
        const ours = protector.protect(headerBytes, payload, roc);
        assert.deepEqual(ours, expected);
        const decrypted = RtpPacket.deSerialize(receiver.decrypt(ours));
        assert.equal(decrypted.header.sequenceNumber, sequence);
        assert.deepEqual(decrypted.payload, payload);
      }
    });

    it('protects a frame of packets of any length at once, as werift does one by one, across a rollover', () => {
      const { sender } = sessions(profile);
      const keys = sendingKeys({ srtp: sender } as never);
      assert.ok(keys);
      const protector = new SrtpProtector(keys);
      const lengths = [1, 15, 16, 17, 1200, 1100, 3, 1337];
      const packets = lengths.map((length, i) => {
        const sequence = (65_532 + i) & 0xffff;
        const header = new RtpHeader({
          payloadType: 102,
          sequenceNumber: sequence,
          timestamp: 3000,
          ssrc: 0xfeed_beef,
        });
        // Payloads at odd offsets, as subarrays of a unit's data are.
        const payload = randomBytes(length + 1).subarray(1);
        return { header, payload, roc: sequence < 65_532 ? 1 : 0 };
      });
      const toProtect = packets.map(({ header, payload, roc }) => ({
        header: header.serialize(header.serializeSize),
        payload,
        roc,
      }));
      const ours = protector.protectAll(toProtect);
      assert.equal(ours.length, packets.length);
      packets.forEach(({ header, payload }, i) => {
        assert.deepEqual(ours[i], sender.encrypt(Buffer.from(payload), header), `packet ${i}`);
      });
      // Into caller-owned targets (one too small): the same datagrams, in the targets that had room.
      const targets = toProtect.map(({ header, payload }, i) =>
        Buffer.alloc(i === 2 ? 8 : protector.roomNeeded(header.length, payload.length) + 7),
      );
      const into = protector.protectAll(toProtect, targets);
      into.forEach((datagram, i) => {
        assert.deepEqual(datagram, ours[i], `packet ${i} into a target`);
        const inTarget = datagram.buffer === targets[i]?.buffer;
        assert.equal(inTarget, profile === SRTP_AES128_CM_HMAC_SHA1_80 && i !== 2, `packet ${i} in its target`);
      });
    });

    it("leaves werift's own ciphers working once their keys are imported", () => {
      const { sender, receiver } = sessions(profile);
      assert.equal(importSrtpKeys({ srtp: sender, srtcp: undefined } as never), true);
      assert.equal(importSrtpKeys({ srtp: receiver, srtcp: undefined } as never), true);
      const header = new RtpHeader({ payloadType: 111, sequenceNumber: 9, timestamp: 4800, ssrc: 42 });
      const payload = randomBytes(200);
      const packet = RtpPacket.deSerialize(receiver.decrypt(sender.encrypt(payload, header)));
      assert.deepEqual(packet.payload, payload);
    });
  });
}

describe('SRTP protector', () => {
  it('refuses an unknown profile and a salt of the wrong size', () => {
    assert.throws(() => new SrtpProtector({ profile: 2, key: randomBytes(16), salt: randomBytes(14) }), /profile 2/);
    assert.throws(
      () => new SrtpProtector({ profile: SRTP_AEAD_AES_128_GCM, key: randomBytes(16), salt: randomBytes(10) }),
      /salt of 12 bytes/,
    );
  });
});
