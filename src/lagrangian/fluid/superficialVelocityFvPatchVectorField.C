#include "superficialVelocityFvPatchVectorField.H"
#include "addToRunTimeSelectionTable.H"
#include "volFields.H"

Foam::superficialVelocityFvPatchVectorField::superficialVelocityFvPatchVectorField
(
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF
)
:
    fixedValueFvPatchVectorField(p, iF),
    superficialVelocity_(),
    alphacName_("alphac")
{}


Foam::superficialVelocityFvPatchVectorField::superficialVelocityFvPatchVectorField
(
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF,
    const dictionary& dict
)
:
    fixedValueFvPatchVectorField(p, iF, dict, false),
    superficialVelocity_(Function1<vector>::New("superficialVelocity", dict)),
    alphacName_(dict.lookupOrDefault<word>("alphac", "alphac"))
{
    if (dict.found("value"))
    {
        fvPatchVectorField::operator=(vectorField("value", dict, p.size()));
    }
    else
    {
        // the fluid fraction may not be read yet: the superficial velocity
        // until the first update
        fvPatchVectorField::operator=
        (
            superficialVelocity_->value(this->db().time().timeOutputValue())
        );
    }
}


Foam::superficialVelocityFvPatchVectorField::superficialVelocityFvPatchVectorField
(
    const superficialVelocityFvPatchVectorField& ptf,
    const fvPatch& p,
    const DimensionedField<vector, volMesh>& iF,
    const fvPatchFieldMapper& mapper
)
:
    fixedValueFvPatchVectorField(ptf, p, iF, mapper),
    superficialVelocity_(ptf.superficialVelocity_.clone()),
    alphacName_(ptf.alphacName_)
{}


Foam::superficialVelocityFvPatchVectorField::superficialVelocityFvPatchVectorField
(
    const superficialVelocityFvPatchVectorField& ptf
)
:
    fixedValueFvPatchVectorField(ptf),
    superficialVelocity_(ptf.superficialVelocity_.clone()),
    alphacName_(ptf.alphacName_)
{}


Foam::superficialVelocityFvPatchVectorField::superficialVelocityFvPatchVectorField
(
    const superficialVelocityFvPatchVectorField& ptf,
    const DimensionedField<vector, volMesh>& iF
)
:
    fixedValueFvPatchVectorField(ptf, iF),
    superficialVelocity_(ptf.superficialVelocity_.clone()),
    alphacName_(ptf.alphacName_)
{}


void Foam::superficialVelocityFvPatchVectorField::updateCoeffs()
{
    if (updated())
    {
        return;
    }
    const vector Us =
        superficialVelocity_->value(this->db().time().timeOutputValue());
    if (!this->db().foundObject<volScalarField>(alphacName_))
    {
        fvPatchVectorField::operator==(Us);
    }
    else
    {
        const scalarField& alphacb =
            patch().lookupPatchField<volScalarField, scalar>(alphacName_);
        if (gMin(alphacb) <= 0)
        {
            FatalErrorInFunction
                << "patch " << patch().name() << " of " << internalField().name()
                << ": the fluid fraction " << alphacName_ << " on it is "
                << gMin(alphacb) << "; the interstitial velocity U_s/"
                << alphacName_ << " needs it above 0" << exit(FatalError);
        }
        fvPatchVectorField::operator==(Us*(1/alphacb));
    }
    fixedValueFvPatchVectorField::updateCoeffs();
}


void Foam::superficialVelocityFvPatchVectorField::write(Ostream& os) const
{
    fvPatchVectorField::write(os);
    superficialVelocity_->writeData(os);
    os.writeEntryIfDifferent<word>("alphac", "alphac", alphacName_);
    writeEntry("value", os);
}


namespace Foam
{
    makePatchTypeField
    (
        fvPatchVectorField,
        superficialVelocityFvPatchVectorField
    );
}
