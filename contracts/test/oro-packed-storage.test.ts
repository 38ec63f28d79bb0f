import hre from "hardhat";
import { expect } from "chai";
import { loadFixture, setStorageAt, time } from "@nomicfoundation/hardhat-network-helpers";
import { encodeAbiParameters, keccak256, numberToHex, padHex, type Address, type Hex } from "viem";
import { devNullifierHash, externalNullifierHashOf } from "@oro/clients";
import { ACTION, AMOUNT_PER_MINT, APP_ID, MAX_UINT128, MAX_UINT32, WAIT_BETWEEN_MINTS, deployFixture, mintSelf } from "./fixtures";
import { blockTimestampOf, event, expectRevert, logsOf } from "./helpers";

// Oro's storage: Ownable's _owner (0), Ownable2Step's _pendingOwner (1), then Oro's own variables in
// declaration order (immutables take no slot). Each is checked against the public getters before use.
const MINT_STATE_SLOT = 2n;
const EXTERNAL_NULLIFIER_SLOT = 3n;
const MINT_DATA_MAPPING_SLOT = 4n;
const BALANCES_MAPPING_SLOT = 5n;

function mappingSlot(key: bigint | Address, mappingSlotIndex: bigint): Hex {
  const keyWord = typeof key === "bigint" ? key : BigInt(key);
  return keccak256(
    encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [keyWord, mappingSlotIndex]),
  );
}

function word(value: bigint): Hex {
  return padHex(numberToHex(value), { size: 32 });
}

async function readSlot(address: Address, slot: bigint | Hex): Promise<bigint> {
  const publicClient = await hre.viem.getPublicClient();
  const value = await publicClient.getStorageAt({ address, slot: typeof slot === "bigint" ? numberToHex(slot) : slot });
  return BigInt(value ?? "0x0");
}

function packMintState(totalSupply: bigint, amountPerMint: bigint, wait: bigint, killed: boolean): bigint {
  return totalSupply | (amountPerMint << 128n) | (wait << 208n) | ((killed ? 1n : 0n) << 248n);
}

// Oro's packed storage, read slot by slot, and the guards against its counters overflowing.
const ALICE = devNullifierHash("alice");

describe("Oro: packed storage and overflow guards", function () {
  it("stores the mint state, the external nullifier, the mint data and the balances where the tests expect", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const mintedAt = await blockTimestampOf(await mintSelf(oro, alice, "alice"));
    expect(await readSlot(oro.address, MINT_STATE_SLOT)).to.equal(
      packMintState(AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false),
    );
    expect(await readSlot(oro.address, EXTERNAL_NULLIFIER_SLOT)).to.equal(externalNullifierHashOf(APP_ID, ACTION));
    expect(await readSlot(oro.address, mappingSlot(ALICE, MINT_DATA_MAPPING_SLOT))).to.equal(mintedAt | (1n << 40n));
    expect(await readSlot(oro.address, mappingSlot(alice.account.address, BALANCES_MAPPING_SLOT))).to.equal(AMOUNT_PER_MINT);
  });

  it("sets the killed bit in the packed slot without touching the rest", async function () {
    const { oro, owner, alice } = await loadFixture(deployFixture);
    await mintSelf(oro, alice, "alice");
    await oro.write.killswitch({ account: owner.account });
    expect(await readSlot(oro.address, MINT_STATE_SLOT)).to.equal(
      packMintState(AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, true),
    );
  });

  it("refuses the mint that would take a human's count past 2^32 - 1", async function () {
    const { oro, alice } = await loadFixture(deployFixture);
    const slot = mappingSlot(ALICE, MINT_DATA_MAPPING_SLOT);
    await setStorageAt(oro.address, slot, word((MAX_UINT32 - 1n) << 40n));
    expect(await oro.read.nullifierHashMintData([ALICE])).to.deep.equal([0, Number(MAX_UINT32 - 1n), false]);

    // The last countable mint succeeds and reports 2^32 - 1 ...
    const hash = await mintSelf(oro, alice, "alice");
    expect((await logsOf(hash))[1]).to.deep.equal(
      event(oro.address, "Minted", {
        receiver: alice.account.address,
        nullifierHash: ALICE,
        amount: AMOUNT_PER_MINT,
        numOfMints: MAX_UINT32,
      }),
    );
    // ... the next one would wrap the packed counter.
    await time.increase(WAIT_BETWEEN_MINTS);
    await expectRevert(mintSelf(oro, alice, "alice"), "MintCountOverflow");
    expect((await oro.read.nullifierHashMintData([ALICE]))[1]).to.equal(Number(MAX_UINT32));
  });

  it("refuses the mint that would take the total supply past 2^128 - 1", async function () {
    const { oro, alice, bob } = await loadFixture(deployFixture);
    // The supply exactly reaches 2^128 - 1: allowed.
    await setStorageAt(
      oro.address,
      MINT_STATE_SLOT,
      word(packMintState(MAX_UINT128 - 2n * AMOUNT_PER_MINT, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false)),
    );
    expect(await oro.read.totalSupply()).to.equal(MAX_UINT128 - 2n * AMOUNT_PER_MINT);
    await mintSelf(oro, alice, "alice");
    expect(await oro.read.totalSupply()).to.equal(MAX_UINT128 - AMOUNT_PER_MINT);
    await mintSelf(oro, bob, "bob");
    expect(await oro.read.totalSupply()).to.equal(MAX_UINT128);
    // One more wei would spill into the settings.
    await setStorageAt(
      oro.address,
      MINT_STATE_SLOT,
      word(packMintState(MAX_UINT128 - AMOUNT_PER_MINT + 1n, AMOUNT_PER_MINT, WAIT_BETWEEN_MINTS, false)),
    );
    await expectRevert(mintSelf(oro, alice, "carol"), "SupplyOverflow");
    expect(await oro.read.amountPerMint()).to.equal(AMOUNT_PER_MINT);
    expect(await oro.read.waitBetweenMints()).to.equal(WAIT_BETWEEN_MINTS);
  });
});
