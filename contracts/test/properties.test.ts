import { expect } from "chai";
import fc from "fast-check";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { parseEther, type Address } from "viem";
import { devNullifierHash, devSessionId } from "@oro/clients";
import {
  AMOUNT_PER_MINT,
  MAX_UINT256,
  WAIT_BETWEEN_MINTS,
  deployFixture,
  expectBalance,
  mintSelf,
  mintTo,
  signVoucher,
  voucherDomain,
  type Wallet,
} from "./fixtures";
import { at, blockTimestampOf, expectRevert, latestTimestamp } from "./helpers";
import { claim, enrol, move } from "./world-id-4-proofs";

const THIRTY_DAYS = 30 * 86_400;
const FUNDING = parseEther("1000000");

describe("properties: the wait between mints and voucher nonces", function () {
  it("a second mint by the same human succeeds iff the elapsed time is at least the wait", async function () {
    const waitAndElapsed = fc.integer({ min: 1, max: THIRTY_DAYS }).chain((wait) =>
      fc.tuple(
        fc.constant(wait),
        // The boundary itself and its neighbours are drawn often; any other offset up to twice the wait too.
        fc.oneof(fc.constant(wait - 1), fc.constant(wait), fc.constant(wait + 1), fc.integer({ min: 1, max: 2 * wait })),
        fc.boolean(),
      ),
    );
    await fc.assert(
      fc.asyncProperty(waitAndElapsed, async ([wait, rawElapsed, toOtherReceiver]) => {
        const elapsed = BigInt(Math.max(1, rawElapsed)); // a block cannot share its parent's timestamp
        const { oro, owner, alice, bob } = await loadFixture(deployFixture);
        await oro.write.setWaitBetweenMints([BigInt(wait)], { account: owner.account });
        const firstMintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));

        await time.setNextBlockTimestamp(firstMintedAt + elapsed);
        const second = toOtherReceiver ? mintTo(oro, alice, "alice", bob.account.address) : mintSelf(oro, alice, "alice");
        if (elapsed >= BigInt(wait)) {
          await second;
          expect(await oro.read.nullifierHashMintData([devNullifierHash("alice")])).to.deep.equal([
            Number(firstMintedAt + elapsed),
            2, false]);
          expect(await oro.read.totalSupply()).to.equal(2n * AMOUNT_PER_MINT);
        } else {
          await expectRevert(second, "NotEnoughTimeSinceLastMint", [firstMintedAt, BigInt(wait)]);
          expect(await oro.read.nullifierHashMintData([devNullifierHash("alice")])).to.deep.equal([Number(firstMintedAt), 1, false]);
          expect(await oro.read.totalSupply()).to.equal(AMOUNT_PER_MINT);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("each distinct voucher nonce pays exactly once; repeats revert; isNonceUsed follows", async function () {
    async function fundedClaimFixture() {
      const deployment = await deployFixture();
      const { oro, owner, alice, claim } = deployment;
      await oro.write.setAmountPerMint([FUNDING], { account: owner.account });
      await mintTo(oro, alice, "treasury", claim.address);
      return deployment;
    }

    const nonce = fc.oneof(
      fc.bigInt(0n, 3n), // duplicates
      fc.constantFrom(128n, 129n, 255n, 256n, 384n), // same low bits, other bit or other word
      fc.bigInt(250n, 262n), // both sides of the first word boundary
      fc.bigInt(0n, MAX_UINT256), // anywhere
    );
    const claimArb = fc.record({ nonce, accountIndex: fc.integer({ min: 0, max: 2 }), amount: fc.bigInt(1n, parseEther("10")) });

    await fc.assert(
      fc.asyncProperty(fc.array(claimArb, { minLength: 1, maxLength: 8 }), async (claims) => {
        const { claim, oro, signer, alice, bob, carol, mallory } = await loadFixture(fundedClaimFixture);
        const accounts = [alice, bob, carol];
        const domain = voucherDomain(claim.address);
        const used = new Set<bigint>();
        const paid = new Map<Address, bigint>();
        let totalPaid = 0n;

        for (const { nonce: voucherNonce, accountIndex, amount } of claims) {
          const account = at(accounts, accountIndex).account.address;
          const voucher = { account, amount, nonce: voucherNonce };
          const submit = claim.write.claim([voucher, await signVoucher(signer, domain, voucher)], { account: mallory.account });
          if (used.has(voucherNonce)) {
            await expectRevert(submit, "VoucherAlreadyClaimed", [voucherNonce]);
          } else {
            await submit;
            used.add(voucherNonce);
            paid.set(account, (paid.get(account) ?? 0n) + amount);
            totalPaid += amount;
          }
        }

        for (const wallet of accounts) {
          await expectBalance(oro, wallet.account.address, paid.get(wallet.account.address) ?? 0n);
        }
        await expectBalance(oro, claim.address, FUNDING - totalPaid);
        for (const { nonce: voucherNonce } of claims) {
          expect(await claim.read.isNonceUsed([voucherNonce])).to.equal(true);
          for (const neighbour of [voucherNonce - 1n, voucherNonce + 1n]) {
            if (neighbour < 0n || neighbour > MAX_UINT256) continue;
            expect(await claim.read.isNonceUsed([neighbour])).to.equal(used.has(neighbour));
          }
        }
      }),
      { numRuns: 30 },
    );
  });
});

describe("properties: balances and the total supply", function () {
  it("over any sequence of mints, transfers, approvals and transferFroms, balances add up to the total supply", async function () {
    const HUMANS = ["h0", "h1"] as const;
    // Every holder starts with one mint of its own, so that transfers have something to move.
    async function seededFixture() {
      const deployment = await deployFixture();
      for (const holder of [deployment.alice, deployment.bob, deployment.carol]) {
        await mintSelf(deployment.oro, holder, `seed-${holder.account.address}`);
      }
      return deployment;
    }
    const holder = fc.integer({ min: 0, max: 2 });
    // Amounts cluster on a few values so that approvals, balances and transfers often line up.
    const amount = fc.oneof(
      { arbitrary: fc.constantFrom(0n, AMOUNT_PER_MINT / 4n, AMOUNT_PER_MINT / 2n, AMOUNT_PER_MINT), weight: 3 },
      { arbitrary: fc.bigInt(0n, 2n * AMOUNT_PER_MINT), weight: 1 },
    );
    // An owner and a spender, often the owner's "next" holder, so that approvals and transferFroms meet.
    const ownerAndSpender = fc
      .tuple(holder, fc.option(holder, { nil: undefined, freq: 3 }))
      .map(([owner, spender]) => ({ owner, spender: spender ?? (owner + 1) % 3 }));
    const operation = fc.oneof(
      {
        arbitrary: fc.record({
          kind: fc.constant("mint" as const),
          human: fc.integer({ min: 0, max: HUMANS.length - 1 }),
          from: holder,
          receiver: fc.option(holder, { nil: undefined }),
        }),
        weight: 2,
      },
      { arbitrary: fc.record({ kind: fc.constant("transfer" as const), from: holder, to: holder, amount }), weight: 2 },
      {
        arbitrary: fc
          .record({ kind: fc.constant("approve" as const), pair: ownerAndSpender, amount: fc.oneof(amount, fc.constant(MAX_UINT256)) })
          .map(({ kind, pair, amount: value }) => ({ kind, owner: pair.owner, spender: pair.spender, amount: value })),
        weight: 2,
      },
      {
        arbitrary: fc
          .record({ kind: fc.constant("transferFrom" as const), pair: ownerAndSpender, to: holder, amount })
          .map(({ kind, pair, to, amount: value }) => ({ kind, from: pair.owner, spender: pair.spender, to, amount: value })),
        weight: 2,
      },
    );
    // Mostly one second apart, so that rate limits bite; sometimes up to two waits, so that mints reopen.
    const advance = fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 60 }), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 2 * Number(WAIT_BETWEEN_MINTS) }), weight: 1 },
    );
    const step = fc.record({ operation, advance });

    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        const { oro, alice, bob, carol } = await loadFixture(seededFixture);
        const holders: Wallet[] = [alice, bob, carol];
        const address = (index: number): Address => at(holders, index).account.address;
        const balances = new Map<Address, bigint>(holders.map((holder) => [holder.account.address, AMOUNT_PER_MINT]));
        const allowances = new Map<string, bigint>();
        const lastMintedAt = new Map<string, bigint>();
        const balanceOf = (account: Address): bigint => balances.get(account) ?? 0n;
        const allowanceKey = (owner: Address, spender: Address): string => `${owner}->${spender}`;
        let supply = BigInt(holders.length) * AMOUNT_PER_MINT;
        let clock = await latestTimestamp();

        for (const { operation: op, advance } of steps) {
          // Every transaction, reverted or not, is mined in its own block at a time the model knows.
          clock += BigInt(advance);
          await time.setNextBlockTimestamp(clock);
          if (op.kind === "mint") {
            const human = at(HUMANS, op.human);
            const sender = at(holders, op.from);
            const receiver = op.receiver === undefined ? sender.account.address : address(op.receiver);
            const sent = op.receiver === undefined ? mintSelf(oro, sender, human) : mintTo(oro, sender, human, receiver);
            const last = lastMintedAt.get(human);
            if (last !== undefined && clock - last < WAIT_BETWEEN_MINTS) {
              await expectRevert(sent, "NotEnoughTimeSinceLastMint", [last, WAIT_BETWEEN_MINTS]);
            } else {
              await sent;
              lastMintedAt.set(human, clock);
              balances.set(receiver, balanceOf(receiver) + AMOUNT_PER_MINT);
              supply += AMOUNT_PER_MINT;
            }
          } else if (op.kind === "transfer") {
            const from = address(op.from);
            const to = address(op.to);
            const sent = oro.write.transfer([to, op.amount], { account: at(holders, op.from).account });
            if (balanceOf(from) < op.amount) {
              await expectRevert(sent, "ERC20InsufficientBalance", [from, balanceOf(from), op.amount]);
            } else {
              await sent;
              balances.set(from, balanceOf(from) - op.amount);
              balances.set(to, balanceOf(to) + op.amount);
            }
          } else if (op.kind === "approve") {
            await oro.write.approve([address(op.spender), op.amount], { account: at(holders, op.owner).account });
            allowances.set(allowanceKey(address(op.owner), address(op.spender)), op.amount);
          } else {
            const from = address(op.from);
            const to = address(op.to);
            const spender = address(op.spender);
            const key = allowanceKey(from, spender);
            const allowance = allowances.get(key) ?? 0n;
            const sent = oro.write.transferFrom([from, to, op.amount], { account: at(holders, op.spender).account });
            if (allowance !== MAX_UINT256 && allowance < op.amount) {
              await expectRevert(sent, "ERC20InsufficientAllowance", [spender, allowance, op.amount]);
            } else if (balanceOf(from) < op.amount) {
              await expectRevert(sent, "ERC20InsufficientBalance", [from, balanceOf(from), op.amount]);
            } else {
              await sent;
              if (allowance !== MAX_UINT256) allowances.set(key, allowance - op.amount);
              balances.set(from, balanceOf(from) - op.amount);
              balances.set(to, balanceOf(to) + op.amount);
            }
          }

          let sumOnChain = 0n;
          for (let index = 0; index < holders.length; index++) {
            const onChain = await oro.read.balanceOf([address(index)]);
            expect(onChain).to.equal(balanceOf(address(index)));
            sumOnChain += onChain;
          }
          const totalSupply = await oro.read.totalSupply();
          expect(totalSupply).to.equal(supply);
          expect(sumOnChain).to.equal(totalSupply);
        }

        for (const [key, allowance] of allowances) {
          const [owner, spender] = key.split("->") as [Address, Address];
          expect(await oro.read.allowance([owner, spender])).to.equal(allowance);
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("properties: one human, one claim per wait, across World ID 3.0 and 4.0", function () {
  type Kind = "mint3" | "move" | "claim4" | "close3" | "enrol";
  const steps = fc.array(
    fc.record({
      kind: fc.constantFrom<Kind>("mint3", "move", "claim4", "close3", "enrol"),
      // Time before the attempt: none, just short of the wait, the wait, or anything up to three waits.
      advance: fc.oneof(fc.constant(0), fc.constant(86_399), fc.constant(86_400), fc.integer({ min: 1, max: 3 * 86_400 })),
    }),
    { minLength: 1, maxLength: 8 },
  );

  it("a 3.0 human's mints through 3.0, the move and session claims are a wait apart; closing 3.0 lets one who never moved start anew once", async function () {
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const { oro, owner, alice } = await loadFixture(deployFixture);
        let sessionId: bigint | undefined;
        let enrolledFresh = false;
        const mints: { at: bigint; freshStart: boolean }[] = [];
        for (const [index, step] of plan.entries()) {
          if (step.advance > 0) await time.increase(step.advance);
          const seed = BigInt(index + 1);
          let hash: `0x${string}` | undefined;
          try {
            if (step.kind === "mint3") hash = await mintTo(oro, alice, "grace", alice.account.address);
            if (step.kind === "move") hash = (await move(oro, alice, "grace", "grace", seed)).hash;
            if (step.kind === "claim4" && sessionId !== undefined) hash = await claim(oro, alice, sessionId);
            if (step.kind === "close3") hash = await oro.write.closeWorldId3({ account: owner.account });
            // Grace was verified long before the cut-off: her 4.0 proofs can carry no genesis bound.
            if (step.kind === "enrol") hash = await enrol(oro, alice, "grace", seed, 0n).then(() => "0x1" as const);
          } catch {
            continue;
          }
          if (hash === undefined) continue;
          if (step.kind === "move") sessionId = devSessionId("grace", seed);
          if (step.kind === "enrol") {
            sessionId = devSessionId("grace", seed);
            enrolledFresh = true;
            mints.push({ at: await latestTimestamp(), freshStart: true });
          }
          if (step.kind === "mint3" || step.kind === "claim4") mints.push({ at: await blockTimestampOf(hash), freshStart: false });
        }
        for (let i = 1; i < mints.length; i += 1) {
          const gap = at(mints, i).at - at(mints, i - 1).at;
          expect(gap >= WAIT_BETWEEN_MINTS || at(mints, i).freshStart, `mints ${i - 1} and ${i}, ${gap} s apart`).to.equal(true);
        }
        // The fresh start happens once, only after 3.0 closed, and never for a human who moved.
        expect(mints.filter((mint) => mint.freshStart).length).to.be.at.most(1);
        if (enrolledFresh) expect((await oro.read.worldIdStatus())[0]).to.equal(true);
        expect(await oro.read.balanceOf([alice.account.address])).to.equal(BigInt(mints.length) * AMOUNT_PER_MINT);
      }),
      {
        numRuns: 60,
        // The sequences a double claim would take, always tried: a session claim inside the wait the move carried,
        // a 3.0 mint after the move, and a fresh enrolment before 3.0 closed or after a move.
        examples: [
          [[{ kind: "mint3", advance: 0 }, { kind: "move", advance: 0 }, { kind: "claim4", advance: 0 }]],
          [[{ kind: "mint3", advance: 0 }, { kind: "move", advance: 0 }, { kind: "claim4", advance: 86_000 }]],
          [[{ kind: "mint3", advance: 0 }, { kind: "move", advance: 86_400 }, { kind: "mint3", advance: 0 }, { kind: "claim4", advance: 0 }]],
          [[{ kind: "mint3", advance: 0 }, { kind: "enrol", advance: 0 }, { kind: "close3", advance: 0 }, { kind: "enrol", advance: 0 }, { kind: "mint3", advance: 86_400 }]],
          [[{ kind: "move", advance: 0 }, { kind: "close3", advance: 0 }, { kind: "enrol", advance: 0 }, { kind: "claim4", advance: 86_400 }]],
        ],
      },
    );
  });
});
