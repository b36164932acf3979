package gotunedjson

import (
	"github.com/wirebench/wirebench/contract"
	"github.com/wirebench/wirebench/internal/answers"
)

// Bounds of the answers a client remembers (ClientOptions.RememberAnswers): a slot
// per id up to answerSlots (the data set of a benchmark is usually smaller), and
// answerBudget bytes of answers per operation.
const (
	answerSlots  = 4096
	echoSlots    = 64
	answerBudget = 32 << 20
)

// answerTables are the tables of the operations whose answers repeat. A nil
// *answerTables remembers nothing.
type answerTables struct {
	persons  *answers.Table[[]contract.Person]
	byID     *answers.Table[contract.Person]
	linkByID *answers.Table[[]contract.PersonLink]
	echoes   *answers.Table[string]
}

func newAnswerTables() *answerTables {
	return &answerTables{
		persons:  answers.New[[]contract.Person](1, answerBudget),
		byID:     answers.New[contract.Person](answerSlots, answerBudget),
		linkByID: answers.New[[]contract.PersonLink](answerSlots, answerBudget),
		echoes:   answers.New[string](echoSlots, answerBudget),
	}
}

func (a *answerTables) list() *answers.Table[[]contract.Person] {
	if a == nil {
		return nil
	}
	return a.persons
}

func (a *answerTables) person() *answers.Table[contract.Person] {
	if a == nil {
		return nil
	}
	return a.byID
}

func (a *answerTables) links() *answers.Table[[]contract.PersonLink] {
	if a == nil {
		return nil
	}
	return a.linkByID
}

func (a *answerTables) echo() *answers.Table[string] {
	if a == nil {
		return nil
	}
	return a.echoes
}

// decodePersonValue is decodePerson returning the person.
func decodePersonValue(data []byte) (contract.Person, error) {
	var p contract.Person
	err := decodePerson(data, &p)
	return p, err
}
