// Divergent control in the divergence dataflow: from the post-dominator tree,
// the blocks that only some threads reach under a thread-dependent branch
// (control dependence), how uniformly they are reached, and the context
// (branch, condition, early exit) that findings and callees are given.
#include "divergence/DivergenceDataflowImpl.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <string>

namespace clang::tidy::occlint::detail {

std::string sourceText(const Stmt *S, const ASTContext &Ctx) {
  if (!S)
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getExpansionRange(S->getSourceRange()).getAsRange());
  std::string Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  std::string Out;
  for (char C : Text) // one line, single spaces
    if (!(C == '\n' || C == '\r' || C == '\t') && !(C == ' ' && !Out.empty() && Out.back() == ' '))
      Out += C;
    else if (!Out.empty() && Out.back() != ' ')
      Out += ' ';
  return Out.size() > 60 ? Out.substr(0, 57) + "..." : Out;
}

namespace {

const Stmt *stripCompound(const Stmt *S) {
  while (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    if (CS->size() != 1)
      break;
    S = CS->body_front();
  }
  return S;
}

} // namespace

/// The condition of a branch statement as written (the whole of `a && b`).
const Expr *branchCondition(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *F = dyn_cast<ForStmt>(S))
    return F->getCond();
  if (const auto *W = dyn_cast<WhileStmt>(S))
    return W->getCond();
  if (const auto *D = dyn_cast<DoStmt>(S))
    return D->getCond();
  if (const auto *Sw = dyn_cast<SwitchStmt>(S))
    return Sw->getCond();
  if (const auto *C = dyn_cast<ConditionalOperator>(S))
    return C->getCond();
  return nullptr;
}

// ---- control dependence ------------------------------------------------------

const CFGBlock *Dataflow::ipdom(const CFGBlock *B) {
  auto *Node = PDT.getBase().getNode(const_cast<CFGBlock *>(B));
  if (!Node || !Node->getIDom())
    return nullptr;
  return Node->getIDom()->getBlock();
}

/// The blocks that run only when X's branch goes to S (transitively).
void Dataflow::region(const CFGBlock *X, const CFGBlock *S, std::vector<bool> &In) {
  const CFGBlock *Stop = ipdom(X);
  for (const CFGBlock *Y = S; Y && Y != Stop; Y = ipdom(Y)) {
    if (In[Y->getBlockID()])
      return;
    In[Y->getBlockID()] = true;
    if (Y->succ_size() >= 2)
      for (const CFGBlock *Z : Y->succs())
        if (Z)
          region(Y, Z, In);
  }
}

std::vector<Taint> Dataflow::computeTaints() {
  const unsigned N = Cfg->getNumBlockIDs();
  std::vector<Taint> New(N);
  for (const CFGBlock *X : *Cfg) {
    if (X->succ_size() < 2 || !Conds[X->getBlockID()])
      continue;
    const unsigned G = Conds[X->getBlockID()]->uniformGroup();
    if (G >= 64)
      continue;
    std::vector<bool> In(N, false);
    for (const CFGBlock *S : X->succs())
      if (S)
        region(X, S, In);
    for (unsigned I = 0; I < N; ++I)
      if (In[I] && (G < New[I].Group || (G == New[I].Group && Primary[X->getBlockID()] &&
                                         !Primary[unsigned(New[I].From)])))
        New[I] = Taint{G, int(X->getBlockID())};
  }
  return New;
}

const CFGBlock *Dataflow::blockById(int Id) {
  for (const CFGBlock *B : *Cfg)
    if (int(B->getBlockID()) == Id)
      return B;
  return nullptr;
}

/// The statement a branch block belongs to (the if, the loop, ...).
const Stmt *Dataflow::branchStmt(const CFGBlock *X) {
  const Stmt *T = X->getTerminatorStmt();
  return T;
}

DivergenceContext Dataflow::contextAt(unsigned Block) {
  const Taint &T = Taints[Block];
  if (T.Group >= Entry.Group || T.From < 0)
    return Entry;
  DivergenceContext C;
  C.Group = T.Group;
  const CFGBlock *X = blockById(T.From);
  const Stmt *S = X ? branchStmt(X) : nullptr;
  C.Branch = S;
  C.BranchLoc = S ? S->getBeginLoc() : SourceLocation();
  C.Cond = Conds[T.From] ? *Conds[T.From] : ThreadValue::top();
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    C.CondText = sourceText(BO->getLHS(), Ctx); // `a && b`: the block branches on a
  } else if (const Expr *Cond = S ? branchCondition(S) : nullptr) {
    C.CondText = sourceText(Cond, Ctx);
  }
  if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
    const Stmt *Then = stripCompound(If->getThen());
    C.Exit = isa<ReturnStmt>(Then) ? "return" : isa<BreakStmt>(Then) ? "break" : isa<ContinueStmt>(Then) ? "continue" : "";
  }
  return C;
}

} // namespace clang::tidy::occlint::detail
